// "Test connection" tries what Settings shows, not what was saved: the key being typed and the
// address being chosen, on a client of their own; the saved connection stays as it was.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBridge, type Bridge } from '../../main/ipc/handlers.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
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

  it('under a run with an address of its own (serve --base-url), tests the typed key there: a wrong key says so', async () => {
    // As `sluice serve --base-url URL` with SLUICE_API_KEY: the saved connection stays the sandbox.
    const served = await Runtime.open({
      stateDir: path.join(dir, 'served'),
      connection: { baseUrl: service.url },
      credentials: { kind: 'apiKey', apiKey: 'live-key-5b4a' },
      watchEvents: false,
    });
    const b = createBridge(served, {
      kind: 'web',
      version: '0.0.0-test',
      secrets: memoryVault(),
      openPath: async () => undefined,
      revealPath: async () => undefined,
    });
    try {
      const screen = { mode: 'sandbox' } as const;
      const wrong = value(
        await b.handlers['settings:testConnection']({ apiKey: 'wrong-typed-key-77', connection: screen }),
      );
      expect(wrong.success).toBe(false);
      if (wrong.success) return;
      expect(wrong.connection).toContain(service.url);
      // Refused by the service itself over HTTP: the typed key was really tried there.
      expect(wrong.statusCode).toBe(401);
      expect(wrong.message).toMatch(/key|credential/i);
      // The key typed is never repeated back (nor anything of it).
      expect(JSON.stringify(wrong)).not.toContain('wrong-typed-key-77');
      expect(JSON.stringify(wrong)).not.toContain('key-77');

      const right = value(await b.handlers['settings:testConnection']({ apiKey: 'live-key-5b4a', connection: screen }));
      expect(right).toMatchObject({ success: true, simulated: false });

      // Nothing typed: the live connection (the run's address and key) as it is.
      expect(value(await b.handlers['settings:testConnection']({}))).toMatchObject({ success: true, simulated: false });
    } finally {
      b.close();
      await served.close();
    }
  }, 60_000);

  it("an address typed on screen is tried as typed, not the run's own address", async () => {
    const other = await startSandbox({ apiKey: 'other-key-91c2', speedFactor: 0.01 });
    const served = await Runtime.open({
      stateDir: path.join(dir, 'served2'),
      connection: { baseUrl: service.url },
      credentials: { kind: 'apiKey', apiKey: 'live-key-5b4a' },
      watchEvents: false,
    });
    const b = createBridge(served, {
      kind: 'web',
      version: '0.0.0-test',
      secrets: memoryVault(),
      openPath: async () => undefined,
      revealPath: async () => undefined,
    });
    try {
      const typed = { mode: 'custom', auth: 'apiKey', baseUrl: other.url, urls: {} } as const;
      const ok = value(await b.handlers['settings:testConnection']({ apiKey: 'other-key-91c2', connection: typed }));
      expect(ok).toMatchObject({ success: true });
      expect(ok.connection).toContain(other.url);
      // The run's key is not the other service's: tried there, it is refused.
      const refused = value(
        await b.handlers['settings:testConnection']({ apiKey: 'live-key-5b4a', connection: typed }),
      );
      expect(refused).toMatchObject({ success: false, statusCode: 401 });
    } finally {
      b.close();
      await served.close();
      await other.close();
    }
  }, 60_000);
});
