// A machine without a keychain: the key typed in Settings is tested before anything is kept, then
// used until Sluice quits, in memory only: no file in the state folder, no event, no log holds it.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { value } from '../helpers/result.js';
import { KeychainError } from '../../main/adapters/store/secrets/keychain.js';
import { SettingsStore } from '../../main/adapters/store/state/settings-store.js';
import type { BridgeEvent } from '../../main/ipc/event-stream.js';
import { createBridge, type Bridge } from '../../main/ipc/handlers.js';
import type { PlatformPort, SecretVault } from '../../main/ipc/platform.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';

const KEY = 'sk-session-7d1f0c2b9e4a5566ABCD';

/** No Secret Service: every read and write fails the way keytar's does. */
const noKeychain: SecretVault = {
  kind: 'keytar',
  get: () => Promise.reject(new KeychainError('unavailable', 'No Secret Service is running.')),
  set: () => Promise.reject(new KeychainError('unavailable', 'No Secret Service is running.')),
  delete: () => Promise.reject(new KeychainError('unavailable', 'No Secret Service is running.')),
  status: async () => ({ store: 'unavailable', problem: 'No Secret Service is running.' }),
};

/** What the runtime reads through (the app's quiet wrapper): an unreadable keychain holds no key. */
const quietNoKeychain: SecretVault = { ...noKeychain, get: async () => null };

let dir: string;
let stateDir: string;
let service: Sandbox;
let rt: Runtime;
let bridge: Bridge;
let events: BridgeEvent[];
let logged: string[];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-session-'));
  stateDir = path.join(dir, 'state');
  service = await startSandbox({ apiKey: KEY });
  new SettingsStore(stateDir).update((s) => ({
    ...s,
    connection: { mode: 'custom', auth: 'apiKey', baseUrl: service.url, urls: {} },
  }));
  logged = [];
  for (const m of ['log', 'error', 'warn', 'info', 'debug'] as const) {
    vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void logged.push(a.map(String).join(' ')));
  }
  rt = await Runtime.open({
    stateDir,
    env: {},
    secrets: quietNoKeychain,
    missingCredentials: 'pause',
    watchEvents: false,
  });
  await rt.start();
  const platform: PlatformPort = {
    kind: 'web',
    version: '0.0.0-test',
    secrets: noKeychain,
    openPath: async () => undefined,
    revealPath: async () => undefined,
  };
  bridge = createBridge(rt, platform, { flushIntervalMs: 20 });
  events = [];
  bridge.events.subscribe((e) => events.push(e), { ready: true });
});
afterEach(async () => {
  vi.restoreAllMocks();
  bridge.close();
  await rt.close();
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('an API key without a keychain', () => {
  it('tests the typed key before it is kept, then uses it until quit with no trace on disk', async () => {
    expect(rt.queue.pauseState?.reason).toBe('credentials');
    // Nothing is stored: the test of the connection in use fails, the typed key is what is tried.
    expect(value(await bridge.handlers['settings:testConnection']({}))).toMatchObject({ success: false });
    expect(value(await bridge.handlers['settings:testConnection']({ apiKey: 'wrong-key' }))).toMatchObject({
      success: false,
    });
    expect(value(await bridge.handlers['settings:testConnection']({ apiKey: KEY }))).toMatchObject({ success: true });
    // Testing kept nothing.
    expect(rt.connection.hasSessionKey).toBe(false);
    expect(rt.queue.pauseState?.reason).toBe('credentials');

    // Storing is impossible here and says why.
    const stored = await bridge.handlers['settings:setApiKey']({ apiKey: KEY });
    expect(stored.ok).toBe(false);

    const v = value(await bridge.handlers['settings:useSessionKey']({ apiKey: KEY }));
    expect(v.credentials).toMatchObject({ apiKey: 'set', sessionKey: true, masked: '••••ABCD' });
    expect(rt.queue.pauseState).toBeUndefined();
    expect(value(await bridge.handlers['settings:testConnection']({}))).toMatchObject({ success: true });
    expect(value(await bridge.handlers['usage:report']({}))).toMatchObject({ simulated: false });

    const secret = KEY.slice(0, 16);
    await new Promise((r) => setTimeout(r, 60));
    expect(JSON.stringify(v)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(logged.join('\n')).not.toContain(secret);
    const files = await readdir(stateDir, { recursive: true, withFileTypes: true });
    expect(files.some((f) => f.isFile())).toBe(true);
    for (const f of files) {
      if (f.isFile()) expect(await readFile(path.join(f.parentPath, f.name), 'utf8')).not.toContain(secret);
    }

    // "Stop using": forgotten at once, and the queue waits for a key again.
    const cleared = value(await bridge.handlers['settings:clearApiKey']({}));
    expect(cleared.credentials.apiKey).toBe('unset');
    expect(cleared.credentials.sessionKey).toBeUndefined();
    expect(rt.connection.hasSessionKey).toBe(false);
    expect(rt.queue.pauseState?.reason).toBe('credentials');
    expect(value(await bridge.handlers['settings:testConnection']({}))).toMatchObject({ success: false });
  });
});
