// A real Runtime on the embedded sandbox in a temp state dir, plus a PlatformPort that records
// what it was asked to open instead of opening it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { BridgeEvent } from '../../main/ipc/event-stream.js';
import { createBridge, type Bridge } from '../../main/ipc/handlers.js';
import type { PlatformPort } from '../../main/ipc/platform.js';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
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

export interface BridgeEnv {
  env: Env;
  bridge: Bridge;
  /** What the bridge sent, when asked for (`events: true`). */
  events: BridgeEvent[];
}

/**
 * A fresh runtime and bridge for each test of the file, closed after it: the fields are set by the
 * time a test runs. `mediaUrl` gives the platform a media address per job (the review's player);
 * `events` records the bridge's events from the start.
 */
export function useBridgeEnv(o: { mediaUrl?: boolean; events?: boolean } = {}): BridgeEnv {
  const t = { events: [] as BridgeEvent[] } as BridgeEnv;
  beforeEach(async () => {
    t.env = await openEnv();
    if (o.mediaUrl) t.env.platform.mediaUrl = (jobId) => `media/${jobId}`;
    t.bridge = createBridge(t.env.rt, t.env.platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
    t.events = [];
    if (o.events) t.bridge.events.subscribe((e) => t.events.push(e), { ready: true });
  });
  afterEach(async () => {
    t.bridge.close();
    await t.env.close();
  });
  return t;
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
