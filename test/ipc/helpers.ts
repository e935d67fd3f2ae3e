// A real Runtime on the embedded sandbox in a temp state dir, plus a PlatformPort that records
// what it was asked to open instead of opening it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PlatformPort } from '../../main/ipc/platform.js';
import { memoryVault } from '../../main/adapters/store/secret-vault.js';
import type { Runtime } from '../../main/runtime/runtime.js';
import { closeRuntime, openRuntime } from '../helpers/runtime.js';

export interface Env {
  dir: string;
  stateDir: string;
  rt: Runtime;
  opened: string[];
  platform: PlatformPort;
  close(): Promise<void>;
}

export async function openEnv(kind: 'electron' | 'web' = 'web'): Promise<Env> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sluice-ipc-'));
  const stateDir = path.join(dir, 'state');
  const rt = await openRuntime({ stateDir });
  const opened: string[] = [];
  const platform: PlatformPort = {
    kind,
    version: '0.0.0-test',
    secrets: memoryVault(),
    openPath: async (p) => void opened.push(`open ${p}`),
    revealPath: async (p) => void opened.push(`reveal ${p}`),
  };
  return {
    dir,
    stateDir,
    rt,
    opened,
    platform,
    close: async () => {
      await closeRuntime(rt);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function until<T>(f: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
