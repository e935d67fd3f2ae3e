// "Test connection" tries what Settings shows, not what was saved: the key being typed and the
// address being chosen, on a client of their own; the saved connection stays as it was.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBridge, type Bridge } from '../../main/ipc/handlers.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { memoryVault } from '../../main/adapters/store/secret-vault.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { value } from '../helpers/result.js';

let dir: string;
let rt: Runtime;
let bridge: Bridge;
let service: Sandbox;

beforeEach(async () => {
  // The sandbox chosen in the settings (the default), not forced for the run: what an editor starts with.
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-test-connection-'));
  rt = await Runtime.open({
    stateDir: path.join(dir, 'state'),
    sandboxOptions: { speedFactor: 0.01 },
    watchEvents: false,
  });
  await rt.start();
  bridge = createBridge(
    rt,
    {
      kind: 'web',
      version: '0.0.0-test',
      secrets: memoryVault(),
      openPath: async () => undefined,
      revealPath: async () => undefined,
    },
    { flushIntervalMs: 20, statsIntervalMs: 50 },
  );
  service = await startSandbox({ apiKey: 'live-key-5b4a', speedFactor: 0.01 });
});
afterEach(async () => {
  bridge.close();
  await rt.close();
  await rm(dir, { recursive: true, force: true });
  await service.close();
});

describe('settings:testConnection', () => {
  it('tests the key typed and the address chosen on screen while the saved connection is the sandbox', async () => {
    const saved = value(await bridge.handlers['settings:testConnection']({}));
    expect(saved).toMatchObject({ success: true, simulated: true });

    const custom = { mode: 'custom', auth: 'apiKey', baseUrl: service.url, urls: {} } as const;
    const typed = value(
      await bridge.handlers['settings:testConnection']({ apiKey: 'live-key-5b4a', connection: custom }),
    );
    expect(typed).toMatchObject({ success: true, simulated: false });
    expect(typed.connection).toContain(service.url);

    const wrong = value(
      await bridge.handlers['settings:testConnection']({ apiKey: 'not-the-key', connection: custom }),
    );
    expect(wrong.success).toBe(false);
    expect(wrong.connection).toContain(service.url);

    // Nothing was saved or switched by testing.
    const view = value(await bridge.handlers['settings:get']({}));
    expect(view.connection).toEqual({ mode: 'sandbox' });
    expect(rt.connection.simulated).toBe(true);
  }, 60_000);
});
