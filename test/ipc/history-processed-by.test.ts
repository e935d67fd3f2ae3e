// History says which computer processed a file of a folder shared with other computers.
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { memoryVault } from '../../main/adapters/store/secret-vault.js';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { createBridge } from '../../main/ipc/handlers.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeToneWav } from '../helpers/media.js';

const KEY = 'k';
let dir: string;
let sandbox: Sandbox;
let rt: Runtime | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-processed-by-'));
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
});
afterEach(async () => {
  await rt?.close().catch(() => undefined);
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

it("a shared folder's file is listed in History with the computer that processed it", async () => {
  const share = path.join(dir, 'share');
  await mkdir(share);
  const runtime = await Runtime.open({
    stateDir: path.join(dir, 'state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    ctx: { poll: { initialMs: 30, maxMs: 100, factor: 1.5, flatMs: 0 } },
  });
  rt = runtime;
  const folder = WATCH_FOLDER.parse({ id: 'news', path: share, shared: true });
  await runtime.updateSettings((s) => ({ ...s, queue: { ...s.queue, settleMs: 200 }, watchFolders: [folder] }));
  await runtime.start({ watch: true });
  await copyFile(await makeToneWav(dir, 'tone.wav', 1), path.join(share, 'take-1.wav'));
  await expect
    .poll(() => runtime.queue.jobs().filter((j) => j.state === 'completed').length, { timeout: 15_000 })
    .toBe(1);
  const bridge = createBridge(
    runtime,
    {
      kind: 'web',
      version: '0.0.0-test',
      secrets: memoryVault(),
      openPath: async () => undefined,
      revealPath: async () => undefined,
    },
    {},
  );
  try {
    const page = await bridge.handlers['history:list']({ includeExternal: false });
    if (!page.ok) throw new Error(page.error.message);
    expect(page.value.entries.map((e) => [e.fileName, e.processedBy])).toEqual([['take-1.wav', runtime.claims.host]]);
  } finally {
    bridge.close();
  }
});
