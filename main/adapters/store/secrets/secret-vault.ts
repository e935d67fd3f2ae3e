// The keychain (keytar) as a SecretVault: a SecretStore that can also say whether it works, so the
// Settings screen can show "stored in the system keychain" or what to install or unlock.
import { KeychainError, keytarStore, type SecretStore } from './keychain.js';

export interface SecretStatus {
  store: 'keychain' | 'safeStorage' | 'unavailable';
  /** What to install or unlock when secrets cannot be stored. */
  problem?: string;
}

/** A SecretStore that can also say where it keeps secrets (for the Settings screen). */
export interface SecretVault extends SecretStore {
  status(): Promise<SecretStatus>;
}

export function keytarVault(store: SecretStore = keytarStore()): SecretVault {
  return {
    kind: store.kind,
    get: (n) => store.get(n),
    set: (n, v) => store.set(n, v),
    delete: (n) => store.delete(n),
    status: async (): Promise<SecretStatus> => {
      try {
        await store.get('api-key');
        return { store: 'keychain' };
      } catch (e) {
        return { store: 'unavailable', problem: e instanceof KeychainError ? e.message : String(e) };
      }
    },
  };
}

/** Secrets kept in memory for this run only (tests, and a keychain-less server given SLUICE_API_KEY). */
export function memoryVault(): SecretVault {
  const m = new Map<string, string>();
  return {
    kind: 'memory',
    get: async (n) => m.get(n) ?? null,
    set: async (n, v) => void m.set(n, v),
    delete: async (n) => m.delete(n),
    status: async () => ({ store: 'keychain' }),
  };
}
