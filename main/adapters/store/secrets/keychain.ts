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

/**
 * What the editor reads when there is no keychain: what it costs them (the key is not kept between
 * sessions), what still works, and what to install; never a module's path or a step that does not exist.
 */
export function keychainMissing(platform: NodeJS.Platform = process.platform): string {
  const affected =
    'Sluice cannot keep your API key between sessions on this computer: the system keychain is not available. ' +
    'You can still use a key until Sluice quits, or start Sluice with SLUICE_API_KEY set.';
  const fix =
    platform === 'linux'
      ? ' To keep the key, install the keychain service (on Debian or Ubuntu: sudo apt install libsecret-1-0 gnome-keyring), then restart Sluice.'
      : ' To keep the key, install Sluice again from its installer; part of it is missing.';
  return affected + fix;
}

function explain(e: unknown): KeychainError {
  const text = e instanceof Error ? e.message : String(e);
  if (/locked collection|unlock|dismissed|user canceled/i.test(text)) {
    return new KeychainError(
      'locked',
      'The system keychain is locked. Unlock it (log in to your desktop session) and try again.',
    );
  }
  if (/DBus|D-Bus|org\.freedesktop\.secrets|autolaunch|ServiceUnknown|No such interface/i.test(text)) {
    return new KeychainError('unavailable', keychainMissing());
  }
  return new KeychainError('failed', `The system keychain refused the request (${text.slice(0, 200)}).`);
}

let keytarPromise: Promise<Keytar | KeychainError> | undefined;

async function loadKeytar(): Promise<Keytar> {
  // A variable specifier: keytar is optional, so type-checking must not require it to be installed.
  const specifier = 'keytar';
  keytarPromise ??= import(specifier).then(
    (m) => ((m as { default?: Keytar }).default ?? (m as unknown as Keytar)) as Keytar,
    // Why the module did not load (a path inside the install) helps no editor: the message says what to do.
    () => new KeychainError('unavailable', keychainMissing()),
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
