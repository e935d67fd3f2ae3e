// keytar against a REAL Secret Service (gnome-keyring in a private D-Bus session: scripts/test.js
// starts one). Without one, the test reports itself skipped with the reason.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keytarStore } from '../../main/adapters/store/secrets/keychain.js';
import { keytarVault } from '../../main/adapters/store/secrets/secret-vault.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { createBridge } from '../../main/ipc/handlers.js';

async function secretServiceProblem(): Promise<string | undefined> {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) return 'no D-Bus session (run under dbus-run-session with gnome-keyring)';
  const probe = keytarStore(`Sluice-probe-${process.pid}`);
  try {
    await probe.set('api-key', 'probe');
    const back = await probe.get('api-key');
    await probe.delete('api-key');
    return back === 'probe' ? undefined : 'the keyring is locked (reads return nothing)';
  } catch (e) {
    return (e as Error).message;
  }
}

const problem = await secretServiceProblem();
if (problem) console.warn(`keytar test skipped: ${problem}`);

describe.skipIf(problem !== undefined)(
  `keytar with a real Secret Service${problem ? ` (skipped: ${problem})` : ''}`,
  () => {
    it('stores, reads, replaces and deletes', async () => {
      const store = keytarStore(`Sluice-test-${process.pid}`);
      await store.set('api-key', 'first-value');
      expect(await store.get('api-key')).toBe('first-value');
      await store.set('api-key', 'second-value');
      expect(await store.get('api-key')).toBe('second-value');
      expect(await store.delete('api-key')).toBe(true);
      expect(await store.get('api-key')).toBeNull();
      expect(await store.delete('api-key')).toBe(false);
    });

    it('keeps the key set through the bridge out of every file in the state dir', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'sluice-keytar-'));
      const key = `sk-real-keychain-${process.pid}-ABCD`;
      const vault = keytarVault(keytarStore(`Sluice-test-bridge-${process.pid}`));
      const rt = await Runtime.open({ stateDir: dir, connection: { sandbox: true }, watchEvents: false });
      try {
        const bridge = createBridge(rt, {
          kind: 'web',
          version: 't',
          secrets: vault,
          openPath: async () => undefined,
          revealPath: async () => undefined,
        });
        const r = await bridge.handlers['settings:setApiKey']({ apiKey: key });
        expect(r).toMatchObject({
          ok: true,
          value: { credentials: { apiKey: 'set', masked: '••••ABCD', secretStore: 'keychain' } },
        });
        expect(await vault.get('api-key')).toBe(key);
        bridge.close();
      } finally {
        await rt.close();
      }
      for (const f of await readdir(dir, { recursive: true, withFileTypes: true })) {
        if (f.isFile()) expect(await readFile(path.join(f.parentPath, f.name), 'latin1')).not.toContain(key);
      }
      await vault.delete('api-key');
      await rm(dir, { recursive: true, force: true });
    });
  },
);
