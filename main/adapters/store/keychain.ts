// The API key and client secret live in the OS keychain (keytar). keytar is an optional native
// module: when it cannot load, or the keychain is locked or missing, every call reports a
// KeychainError whose message says what to install or unlock. Secrets never appear in messages.

export const KEYCHAIN_SERVICE = 'Sluice';
export type SecretName = 'api-key' | 'client-id' | 'client-secret';

export type KeychainProblem = 'unavailable' | 'locked' | 'failed';

export class KeychainError extends Error {
  constructor(
    readonly problem: KeychainProblem,
    message: string,
  ) {
    super(message);
    this.name = 'KeychainError';
  }
}

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface SecretStore {
  readonly kind: string;
  get(name: SecretName): Promise<string | null>;
  set(name: SecretName, value: string): Promise<void>;
  delete(name: SecretName): Promise<boolean>;
}

const INSTALL_HINT =
  process.platform === 'linux'
    ? 'Install libsecret and a Secret Service such as GNOME Keyring (Debian/Ubuntu: apt install libsecret-1-0 gnome-keyring), then sign in again.'
    : 'Reinstall Sluice; the keychain module is missing.';

function explain(e: unknown): KeychainError {
  const text = e instanceof Error ? e.message : String(e);
  if (/locked collection|unlock|dismissed|user canceled/i.test(text)) {
    return new KeychainError(
      'locked',
      'The system keychain is locked. Unlock it (log in to your desktop session) and try again.',
    );
  }
  if (/DBus|D-Bus|org\.freedesktop\.secrets|autolaunch|ServiceUnknown|No such interface/i.test(text)) {
    return new KeychainError('unavailable', `No system keychain is running. ${INSTALL_HINT}`);
  }
  return new KeychainError('failed', `The system keychain refused the request (${text.slice(0, 200)}).`);
}

let keytarPromise: Promise<Keytar | KeychainError> | undefined;

async function loadKeytar(): Promise<Keytar> {
  // A variable specifier: keytar is optional, so type-checking must not require it to be installed.
  const specifier = 'keytar';
  keytarPromise ??= import(specifier).then(
    (m) => ((m as { default?: Keytar }).default ?? (m as unknown as Keytar)) as Keytar,
    (e: unknown) =>
      new KeychainError(
        'unavailable',
        `The keychain module could not load (${e instanceof Error ? e.message.split('\n')[0] : String(e)}). ${INSTALL_HINT}`,
      ),
  );
  const k = await keytarPromise;
  if (k instanceof KeychainError) throw k;
  return k;
}

/** The OS keychain through keytar. `service` can be changed for tests. */
export function keytarStore(service = KEYCHAIN_SERVICE): SecretStore {
  const call = async <T>(f: (k: Keytar) => Promise<T>): Promise<T> => {
    const k = await loadKeytar();
    try {
      return await f(k);
    } catch (e) {
      throw explain(e);
    }
  };
  return {
    kind: 'keytar',
    get: (name) => call((k) => k.getPassword(service, name)),
    set: (name, value) => call((k) => k.setPassword(service, name, value)),
    delete: (name) => call((k) => k.deletePassword(service, name)),
  };
}
