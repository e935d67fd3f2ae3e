// History says which computer processed a file of a folder shared with other computers, lists the
// computers it names, and filters and sorts by them.
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createClient } from '../../main/api/client.js';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
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

it("filters and sorts by computer: the list names every computer whatever the filter, the service's streams are left out", async () => {
  const share = path.join(dir, 'share');
  await mkdir(share);
  const tone = await makeToneWav(dir, 'tone.wav', 1);
  const open = (computerName: string): Promise<Runtime> =>
    Runtime.open({
      stateDir: path.join(dir, 'state'),
      connection: { baseUrl: sandbox.url },
      credentials: { kind: 'apiKey', apiKey: KEY },
      ctx: { poll: { initialMs: 30, maxMs: 100, factor: 1.5, flatMs: 0 } },
      computerName,
    });
  const folder = WATCH_FOLDER.parse({ id: 'news', path: share, shared: true });
  // The same state folder on a computer renamed in between: History names both.
  for (const [name, file] of [
    ['EDIT-BAY-1', 'take-1.wav'],
    ['EDIT-BAY-2', 'take-2.wav'],
  ] as const) {
    const runtime = await open(name);
    rt = runtime;
    await runtime.updateSettings((s) => ({ ...s, queue: { ...s.queue, settleMs: 200 }, watchFolders: [folder] }));
    await runtime.start({ watch: true });
    await copyFile(tone, path.join(share, file));
    await expect
      .poll(() => runtime.queue.jobs().filter((j) => j.state === 'completed' && j.processedBy === name).length, {
        timeout: 15_000,
      })
      .toBe(1);
    if (name === 'EDIT-BAY-1') {
      await runtime.close();
      rt = undefined;
    }
  }
  // A stream started elsewhere (the API): the service's list has it, it names no computer.
  const client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'apiKey', apiKey: KEY } });
  await client.upload({ filePath: tone, templateId: '668115d123bca7e3509723d4', streamId: randomUUID() });
  await client.close();
  const bridge = createBridge(
    rt!,
    {
      kind: 'web',
      version: '0.0.0-test',
      secrets: memoryVault(),
      openPath: async () => undefined,
      revealPath: async () => undefined,
    },
    {},
  );
  const list = async (q: Parameters<(typeof bridge.handlers)['history:list']>[0]) => {
    const page = await bridge.handlers['history:list'](q);
    if (!page.ok) throw new Error(page.error.message);
    return page.value;
  };
  try {
    const everything = await list({ refresh: true });
    expect(everything.entries.filter((e) => e.origin === 'external')).toHaveLength(1);
    const all = await list({ includeExternal: false });
    expect(all.computers).toEqual(['EDIT-BAY-1', 'EDIT-BAY-2']);
    const two = await list({ computers: ['edit-bay-2'] });
    expect(two.entries.map((e) => [e.fileName, e.processedBy])).toEqual([['take-2.wav', 'EDIT-BAY-2']]);
    expect(two.computers).toEqual(['EDIT-BAY-1', 'EDIT-BAY-2']);
    expect((await list({ computers: ['nobody'] })).total).toBe(0);
    const byComputer = await list({ sort: { by: 'computer', dir: 'asc' }, includeExternal: false });
    expect(byComputer.entries.map((e) => e.processedBy)).toEqual(['EDIT-BAY-1', 'EDIT-BAY-2']);
    const reversed = await list({ sort: { by: 'computer', dir: 'desc' }, includeExternal: false });
    expect(reversed.entries.map((e) => e.processedBy)).toEqual(['EDIT-BAY-2', 'EDIT-BAY-1']);
    // A bad value is refused by the schema with a clear error, not passed on.
    const bad = await bridge.handlers['history:list']({ computers: [42] } as never);
    expect(bad.ok).toBe(false);
  } finally {
    bridge.close();
  }
});
