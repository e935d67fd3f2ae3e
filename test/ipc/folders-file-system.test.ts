// The folder editor asks which file system a folder is on: a path is validated like every request's
// input, a local folder gives no hint, and a network drive (stood in for by the adapter's test seam,
// SLUICE_TEST_FS_TYPE, as no network drive can be mounted here) gives the suggestion to share it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
import { createBridge, dispatch } from '../../main/ipc/handlers.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';

let dir: string;
let sandbox: Sandbox;
let rt: Runtime | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-fs-ipc-'));
  sandbox = await startSandbox({ apiKey: 'k' });
});
afterEach(async () => {
  delete process.env.SLUICE_TEST_FS_TYPE;
  await rt?.close().catch(() => undefined);
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

it("answers a folder's file system, with the hint only for a network drive", async () => {
  rt = await Runtime.open({
    stateDir: path.join(dir, 'state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: 'k' },
  });
  const bridge = createBridge(
    rt,
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
    const ask = bridge.handlers['folders:fileSystem'];
    for (const raw of [{ path: '   ' }, { path: dir, extra: 1 }, { path: 7 }, {}]) {
      const bad = await dispatch(bridge.handlers, 'folders:fileSystem', raw);
      expect(bad.ok ? 'accepted' : bad.error.code).toBe('INVALID_PARAMS');
    }

    const local = await ask({ path: dir });
    if (!local.ok) throw new Error(local.error.message);
    expect(local.value.hint).toBeUndefined();
    if (process.platform === 'linux') expect(local.value.verdict).toBe('local');

    process.env.SLUICE_TEST_FS_TYPE = String(0x517b);
    const smb = await ask({ path: dir });
    if (!smb.ok) throw new Error(smb.error.message);
    expect(smb.value).toEqual({
      verdict: 'network',
      label: 'SMB',
      hint: 'This folder is on a network drive (SMB). If other computers watch it, turn on Shared with other computers.',
    });
  } finally {
    bridge.close();
  }
});
