// The desktop app's choice of secret store, with a stand-in safeStorage: keytar first, the
// encrypted file when the keychain is missing, and a refusal rather than plaintext.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeychainError, type SecretStore } from '../../main/adapters/store/keychain.js';
import { createElectronVault, SECRETS_FILE, type SafeStorageLike } from '../../main/electron/secret-store.js';

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

function fakeSafeStorage(backend = 'gnome_libsecret', available = true): SafeStorageLike {
  // XOR "encryption": enough to prove the file never holds the plaintext.
  const xor = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
  return {
    isAsyncEncryptionAvailable: async () => available,
    encryptStringAsync: async (s) => xor(Buffer.from(s, 'utf8')),
    decryptStringAsync: async (b) => ({ result: xor(b).toString('utf8'), shouldReEncrypt: false }),
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
});
