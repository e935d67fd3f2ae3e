// Where the desktop app keeps the API key: the OS keychain through keytar first; when keytar cannot
// load or the keychain is missing or locked, Electron's safeStorage (async API) encrypting into a
// file in the state dir. safeStorage is refused when it would use its hardcoded "basic_text" key:
// that is plaintext in all but name. Nothing here imports Electron: the shell injects safeStorage,
// so the choice can be tested in plain Node.
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { KeychainError, type SecretName, type SecretStore } from '../adapters/store/keychain.js';
import type { SecretStatus, SecretVault } from '../ipc/platform.js';

/** The part of Electron's safeStorage used here (Electron 45: the sync calls are deprecated). */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plain: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  getSelectedStorageBackend?(): string;
}

export const SECRETS_FILE = 'secrets.enc.json';

const LINUX_HINT =
  'Install and unlock a Secret Service (Debian/Ubuntu: apt install gnome-keyring libsecret-1-0; KDE: kwallet), then restart Sluice.';

function safeStorageVault(stateDir: string, safe: SafeStorageLike): SecretStore {
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
      const { result, shouldReEncrypt } = await safe.decryptStringAsync(Buffer.from(enc, 'base64'));
      if (shouldReEncrypt) {
        const all = await load();
        all[name] = (await safe.encryptStringAsync(result)).toString('base64');
        await store(all);
      }
      return result;
    },
    set: async (name, value) => {
      const all = await load();
      all[name] = (await safe.encryptStringAsync(value)).toString('base64');
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
  return undefined;
}

export interface ElectronVaultOptions {
  stateDir: string;
  keytar: SecretStore;
  safeStorage: SafeStorageLike;
  platform?: NodeJS.Platform;
}

/** Chooses the backend on first use and keeps it; `status()` says which one and, if none, why. */
export function createElectronVault(o: ElectronVaultOptions): SecretVault {
  const platform = o.platform ?? process.platform;
  let chosen: Promise<{ store?: SecretStore; status: SecretStatus }> | undefined;
  const choose = () =>
    (chosen ??= (async () => {
      let keytarProblem: string;
      try {
        await o.keytar.get('api-key');
        return { store: o.keytar, status: { store: 'keychain' as const } };
      } catch (e) {
        keytarProblem = e instanceof Error ? e.message : String(e);
      }
      const problem = await safeStorageProblem(o.safeStorage, platform);
      if (!problem)
        return { store: safeStorageVault(o.stateDir, o.safeStorage), status: { store: 'safeStorage' as const } };
      const hint = platform === 'linux' ? ` ${LINUX_HINT}` : '';
      return { status: { store: 'unavailable' as const, problem: `${keytarProblem} ${problem}${hint}` } };
    })());
  const use = async (): Promise<SecretStore> => {
    const c = await choose();
    if (!c.store) throw new KeychainError('unavailable', c.status.problem ?? 'No place to keep secrets.');
    return c.store;
  };
  return {
    kind: 'electron',
    get: async (name: SecretName) => (await use()).get(name),
    set: async (name: SecretName, value: string) => (await use()).set(name, value),
    delete: async (name: SecretName) => (await use()).delete(name),
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
