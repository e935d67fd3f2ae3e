// The desktop app's choice of secret store, with a stand-in safeStorage: keytar first, the
// encrypted file when the keychain is missing, and a refusal rather than plaintext.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeychainError, type SecretStore } from '../../main/adapters/store/secrets/keychain.js';
import { createElectronVault, RETRY_MS, SECRETS_FILE, type SafeStorageLike } from '../../main/electron/secret-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-secrets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const brokenKeytar: SecretStore = {
  kind: 'keytar',
  get: () => Promise.reject(new KeychainError('unavailable', 'No system keychain is running.')),
  set: () => Promise.reject(new KeychainError('unavailable', 'No system keychain is running.')),
  delete: () => Promise.reject(new KeychainError('unavailable', 'No system keychain is running.')),
};

/**
 * XOR "encryption": enough to prove the file never holds the plaintext. The prefix is Chromium's
 * version tag: v11 for a keyring-backed key on Linux, v10 for its hardcoded fallback key.
 */
function fakeSafeStorage(backend = 'gnome_libsecret', available = true, prefix = 'v11'): SafeStorageLike {
  const xor = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
  return {
    isAsyncEncryptionAvailable: async () => available,
    encryptStringAsync: async (s) => Buffer.concat([Buffer.from(prefix), xor(Buffer.from(s, 'utf8'))]),
    decryptStringAsync: async (b) => ({ result: xor(b.subarray(3)).toString('utf8'), shouldReEncrypt: false }),
    getSelectedStorageBackend: () => backend,
  };
}

async function allFileText(root: string): Promise<string> {
  let text = '';
  for (const f of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) text += await readFile(path.join(f.parentPath, f.name), 'utf8');
  }
  return text;
}

describe('electron secret store', () => {
  it('uses keytar when it works', async () => {
    const m = new Map<string, string>();
    const keytar: SecretStore = {
      kind: 'keytar',
      get: async (n) => m.get(n) ?? null,
      set: async (n, v) => void m.set(n, v),
      delete: async (n) => m.delete(n),
    };
    const v = createElectronVault({ stateDir: dir, keytar, safeStorage: fakeSafeStorage(), platform: 'linux' });
    await v.set('api-key', 'k-123');
    expect(await v.status()).toEqual({ store: 'keychain' });
    expect(m.get('api-key')).toBe('k-123');
    expect(await readdir(dir)).toEqual([]);
  });

  it('falls back to safeStorage, encrypted in the state dir', async () => {
    const v = createElectronVault({
      stateDir: dir,
      keytar: brokenKeytar,
      safeStorage: fakeSafeStorage(),
      platform: 'linux',
    });
    await v.set('api-key', 'secret-value-1234');
    expect(await v.get('api-key')).toBe('secret-value-1234');
    await v.set('api-key', 'secret-value-5678');
    expect(await v.get('api-key')).toBe('secret-value-5678');
    expect((await v.status()).store).toBe('safeStorage');
    expect(await readdir(dir)).toEqual([SECRETS_FILE]);
    expect(await allFileText(dir)).not.toContain('secret-value');
    expect(await v.delete('api-key')).toBe(true);
    expect(await v.get('api-key')).toBeNull();
  });

  it('refuses basic_text (plaintext) and says what to install', async () => {
    const v = createElectronVault({
      stateDir: dir,
      keytar: brokenKeytar,
      safeStorage: fakeSafeStorage('basic_text'),
      platform: 'linux',
    });
    const status = await v.status();
    expect(status.store).toBe('unavailable');
    expect(status.problem).toMatch(/gnome-keyring/);
    await expect(v.set('api-key', 'x')).rejects.toBeInstanceOf(KeychainError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses when no encryption is available at all', async () => {
    const v = createElectronVault({
      stateDir: dir,
      keytar: brokenKeytar,
      safeStorage: fakeSafeStorage('unknown', false),
      platform: 'darwin',
    });
    expect((await v.status()).store).toBe('unavailable');
  });

  it("refuses Electron's hardcoded-key fallback (v10) on Linux although encryption says available", async () => {
    const v = createElectronVault({
      stateDir: dir,
      keytar: brokenKeytar,
      safeStorage: fakeSafeStorage('gnome_libsecret', true, 'v10'),
      platform: 'linux',
    });
    const status = await v.status();
    expect(status.store).toBe('unavailable');
    expect(status.problem).toMatch(/built into Electron/);
    expect(status.problem).toMatch(/gnome-keyring/);
    await expect(v.set('api-key', 'secret-value-1234')).rejects.toBeInstanceOf(KeychainError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('will not read a key an earlier run kept under the hardcoded key', async () => {
    const v10 = Buffer.concat([Buffer.from('v10'), Buffer.from('whatever')]).toString('base64');
    await writeFile(path.join(dir, SECRETS_FILE), JSON.stringify({ 'api-key': v10 }));
    const v = createElectronVault({
      stateDir: dir,
      keytar: brokenKeytar,
      safeStorage: fakeSafeStorage(),
      platform: 'linux',
    });
    await expect(v.get('api-key')).rejects.toThrow(/built into Electron/);
  });

  it('tries a failed keychain again later instead of keeping the failure for the run', async () => {
    const m = new Map<string, string>([['api-key', 'k-from-keychain']]);
    let locked = true;
    const keytar: SecretStore = {
      kind: 'keytar',
      get: async (n) => {
        if (locked) throw new KeychainError('locked', 'The system keychain is locked.');
        return m.get(n) ?? null;
      },
      set: async (n, val) => void m.set(n, val),
      delete: async (n) => m.delete(n),
    };
    let t = 0;
    const v = createElectronVault({
      stateDir: dir,
      keytar,
      safeStorage: fakeSafeStorage('unknown', false),
      platform: 'linux',
      now: () => t,
    });
    await expect(v.get('api-key')).rejects.toBeInstanceOf(KeychainError);
    locked = false; // the user logs in and the keyring unlocks
    t += RETRY_MS + 1;
    expect(await v.get('api-key')).toBe('k-from-keychain');
    expect(await v.status()).toEqual({ store: 'keychain' });
  });

  it('finds and removes a key kept in the encrypted file while the keychain was away', async () => {
    let down = true;
    const m = new Map<string, string>();
    const keytar: SecretStore = {
      kind: 'keytar',
      get: async (n) => {
        if (down) throw new KeychainError('unavailable', 'No system keychain is running.');
        return m.get(n) ?? null;
      },
      set: async (n, val) => void m.set(n, val),
      delete: async (n) => m.delete(n),
    };
    let t = 0;
    const v = createElectronVault({
      stateDir: dir,
      keytar,
      safeStorage: fakeSafeStorage(),
      platform: 'linux',
      now: () => t,
    });
    await v.set('api-key', 'secret-value-1234');
    expect((await v.status()).store).toBe('safeStorage');
    down = false;
    t += RETRY_MS + 1;
    expect(await v.get('api-key')).toBe('secret-value-1234');
    expect(await v.delete('api-key')).toBe(true);
    expect(await v.get('api-key')).toBeNull();
  });
});
