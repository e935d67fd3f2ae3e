// Where the desktop app keeps the API key: the OS keychain through keytar first; when keytar cannot
// load or the keychain is missing or locked, Electron's safeStorage (async API) encrypting into a
// file in the state dir. safeStorage is refused when it would use a hardcoded key: that is plaintext
// in all but name. On Linux that is the "basic_text" backend, and also the fallback Electron's async
// encryptor takes when no Secret Service answers while it still reports encryption as available:
// its ciphertext starts with "v10" (Chromium's Posix key), where the keyring's starts with "v11".
// A keychain failure is not cached: the next use after RETRY_MS tries keytar again (the keychain may
// be unlocked by then). Nothing here imports Electron: the shell injects safeStorage, so the choice
// can be tested in plain Node.
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { KeychainError, type SecretName, type SecretStore } from '../adapters/store/secrets/keychain.js';
import type { SecretStatus, SecretVault } from '../adapters/store/secrets/secret-vault.js';

/** The part of Electron's safeStorage used here (Electron 45: the sync calls are deprecated). */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plain: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  getSelectedStorageBackend?(): string;
}

export const SECRETS_FILE = 'secrets.enc.json';

/** Chromium's prefix for data encrypted with its hardcoded Posix key ("peanuts"). */
const HARDCODED_KEY_PREFIX = 'v10';
/** How soon a failed keychain is tried again. */
export const RETRY_MS = 30_000;

const HARDCODED_KEY_PROBLEM =
  'No Secret Service answered, so the key would be encrypted with a key built into Electron that everyone knows; Sluice refuses to do that.';

const LINUX_HINT =
  'Install and unlock a Secret Service (Debian/Ubuntu: apt install gnome-keyring libsecret-1-0; KDE: kwallet), then restart Sluice.';

function hardcoded(enc: Buffer, platform: NodeJS.Platform): boolean {
  return platform === 'linux' && enc.subarray(0, 3).toString('latin1') === HARDCODED_KEY_PREFIX;
}

function safeStorageVault(stateDir: string, safe: SafeStorageLike, platform: NodeJS.Platform): SecretStore {
  const refuse = (): never => {
    throw new KeychainError('unavailable', `${HARDCODED_KEY_PROBLEM} ${LINUX_HINT}`);
  };
  const encrypt = async (plain: string): Promise<string> => {
    const enc = await safe.encryptStringAsync(plain);
    if (hardcoded(enc, platform)) refuse();
    return enc.toString('base64');
  };
  const file = path.join(stateDir, SECRETS_FILE);
  const load = async (): Promise<Record<string, string>> => {
    const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) =>
      e.code === 'ENOENT' ? '{}' : Promise.reject(e),
    );
    return JSON.parse(text) as Record<string, string>;
  };
  const store = async (all: Record<string, string>): Promise<void> => {
    const tmp = `${file}.tmp`;
    await writeFile(tmp, JSON.stringify(all), { mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, file);
  };
  return {
    kind: 'safeStorage',
    get: async (name) => {
      const enc = (await load())[name];
      if (!enc) return null;
      const bytes = Buffer.from(enc, 'base64');
      if (hardcoded(bytes, platform)) refuse();
      const { result, shouldReEncrypt } = await safe.decryptStringAsync(bytes);
      if (shouldReEncrypt) {
        const all = await load();
        all[name] = await encrypt(result);
        await store(all);
      }
      return result;
    },
    set: async (name, value) => {
      const encrypted = await encrypt(value);
      const all = await load();
      all[name] = encrypted;
      await store(all);
    },
    delete: async (name) => {
      const all = await load();
      if (!(name in all)) return false;
      delete all[name];
      await store(all);
      return true;
    },
  };
}

/** Why safeStorage cannot be used here, or undefined when it can. */
async function safeStorageProblem(safe: SafeStorageLike, platform: NodeJS.Platform): Promise<string | undefined> {
  if (!(await safe.isAsyncEncryptionAvailable())) return 'The system offers no encryption for stored secrets.';
  if (platform === 'linux' && safe.getSelectedStorageBackend?.() === 'basic_text') {
    return 'No Secret Service is running, so the key would be stored unencrypted; Sluice refuses to do that.';
  }
  if (platform === 'linux' && hardcoded(await safe.encryptStringAsync('probe'), platform)) return HARDCODED_KEY_PROBLEM;
  return undefined;
}

export interface ElectronVaultOptions {
  stateDir: string;
  keytar: SecretStore;
  safeStorage: SafeStorageLike;
  platform?: NodeJS.Platform;
  now?: () => number;
}

interface Choice {
  store?: SecretStore;
  status: SecretStatus;
}

/**
 * Chooses the backend on use: a working keychain is kept for the run; any other choice (the
 * encrypted file, or nothing) holds for RETRY_MS and then the keychain is tried again. `status()`
 * says which one and, if none, why.
 */
export function createElectronVault(o: ElectronVaultOptions): SecretVault {
  const platform = o.platform ?? process.platform;
  const now = o.now ?? Date.now;
  const file = safeStorageVault(o.stateDir, o.safeStorage, platform);
  let chosen: Promise<Choice> | undefined;
  let chosenAt = 0;
  const probe = async (): Promise<Choice> => {
    let keytarProblem: string;
    try {
      await o.keytar.get('api-key');
      return { store: o.keytar, status: { store: 'keychain' } };
    } catch (e) {
      keytarProblem = e instanceof Error ? e.message : String(e);
    }
    const problem = await safeStorageProblem(o.safeStorage, platform);
    if (!problem) return { store: file, status: { store: 'safeStorage' } };
    const hint = platform === 'linux' ? ` ${LINUX_HINT}` : '';
    return { status: { store: 'unavailable', problem: `${keytarProblem} ${problem}${hint}` } };
  };
  const choose = async (): Promise<Choice> => {
    const last = chosen ? await chosen : undefined;
    if (last && (last.status.store === 'keychain' || now() - chosenAt < RETRY_MS)) return last;
    chosenAt = now();
    chosen = probe();
    return chosen;
  };
  const use = async (): Promise<{ store: SecretStore; keychain: boolean }> => {
    const c = await choose();
    if (!c.store) throw new KeychainError('unavailable', c.status.problem ?? 'No place to keep secrets.');
    return { store: c.store, keychain: c.status.store === 'keychain' };
  };
  return {
    kind: 'electron',
    get: async (name: SecretName) => {
      const { store, keychain } = await use();
      const v = await store.get(name);
      // A key saved in the encrypted file while the keychain was away is still found (or refused).
      return v === null && keychain ? file.get(name).catch(() => null) : v;
    },
    set: async (name: SecretName, value: string) => (await use()).store.set(name, value),
    delete: async (name: SecretName) => {
      const { store, keychain } = await use();
      const removed = await store.delete(name);
      // Removing the key removes it everywhere Sluice may have kept it.
      return keychain ? (await file.delete(name).catch(() => false)) || removed : removed;
    },
    status: async () => (await choose()).status,
  };
}

/** For Runtime.open: a missing keychain must not stop the app from starting (it shows in Settings). */
export function quietVault(v: SecretStore): SecretStore {
  return {
    kind: v.kind,
    get: (n) => v.get(n).catch(() => null),
    set: (n, x) => v.set(n, x),
    delete: (n) => v.delete(n),
  };
}
