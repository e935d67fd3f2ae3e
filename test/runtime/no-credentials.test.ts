// A runtime whose service needs a key it does not have: the CLI is refused (as before), the desktop
// app opens with the queue paused for credentials and sends nothing, and a reconnect once the key
// is stored starts the queue.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionError } from '../../main/adapters/queue/connection.js';
import type { SecretStore } from '../../main/adapters/store/secrets/keychain.js';
import { SettingsStore } from '../../main/adapters/store/state/settings-store.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeToneWav } from '../helpers/media.js';

const KEY = 'k-live';
let dir: string;
let sandbox: Sandbox;
let rt: Runtime | undefined;

function memorySecrets(): SecretStore & { m: Map<string, string> } {
  const m = new Map<string, string>();
  return {
    kind: 'memory',
    m,
    get: async (n) => m.get(n) ?? null,
    set: async (n, v) => void m.set(n, v),
    delete: async (n) => m.delete(n),
  };
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-nokey-'));
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
  // The user chose a real service (here the sandbox's URL stands in for it) and has no key stored.
  new SettingsStore(path.join(dir, 'state')).update((s) => ({
    ...s,
    connection: { mode: 'custom', auth: 'apiKey', baseUrl: sandbox.url, urls: {} },
  }));
});

afterEach(async () => {
  await rt?.close();
  rt = undefined;
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a runtime without credentials', () => {
  it('is refused by default (the CLI says what to do)', async () => {
    await expect(
      Runtime.open({ stateDir: path.join(dir, 'state'), secrets: memorySecrets(), env: {} }),
    ).rejects.toBeInstanceOf(ConnectionError);
  });

  it("opens paused for credentials with 'pause', sends nothing, and runs once the key is stored", async () => {
    const secrets = memorySecrets();
    rt = await Runtime.open({
      stateDir: path.join(dir, 'state'),
      secrets,
      env: {},
      missingCredentials: 'pause',
      ctx: { poll: { initialMs: 30, maxMs: 100, factor: 1.5, flatMs: 0 } },
    });
    expect(rt.connection.credentialsMissing).toBe(true);
    expect(rt.queue.pauseState?.reason).toBe('credentials');
    expect(rt.queue.pauseState?.message).toMatch(/Settings/);
    expect(rt.connection.simulated).toBe(false);
    await rt.start();
    const [added] = await rt.queue.addPaths([await makeToneWav(dir, 'a.wav', 1)]);
    const id = added && 'jobId' in added ? added.jobId : '';
    expect(id).not.toBe('');
    await expect(rt.connection.client.testConnection()).rejects.toThrow(/No API key/);
    // The scheduler looked at the queue after the file was added (on the next turn): nothing started.
    await new Promise((r) => setImmediate(r));
    expect(rt.queue.job(id)?.state).toBe('queued');
    expect(Object.values(sandbox.stats()).reduce((a, b) => a + b, 0)).toBe(0);

    await secrets.set('api-key', KEY);
    await rt.connection.reconnect();
    expect(rt.connection.credentialsMissing).toBe(false);
    expect(rt.queue.pauseState).toBeUndefined();
    const [done] = await rt.queue.whenSettled([id]);
    expect(done?.state).toBe('completed');
  });
});
