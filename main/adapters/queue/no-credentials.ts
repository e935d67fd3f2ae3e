// The client of a runtime opened without credentials (the desktop app must open so the key can be
// entered in Settings): nothing is sent anywhere, and every call fails as a credentials error, so
// the engine keeps the queue paused for credentials until a reconnect brings a real client.
import type { SluiceClient } from '../../api/client.js';
import { ServiceError } from '../../service/errors.js';

export function noCredentialsClient(message: string): SluiceClient {
  const refuse = (): ServiceError => new ServiceError({ kind: 'input', message, classHint: 'credentials' });
  const client = new Proxy(
    {},
    {
      get(_target, prop) {
        if (prop === 'then') return undefined; // not a thenable
        if (prop === 'close') return () => Promise.resolve();
        if (prop === 'iterateStreams' || prop === 'iterateTemplates') {
          return () => ({
            [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(refuse()) }),
          });
        }
        return () => Promise.reject(refuse());
      },
    },
  );
  return client as SluiceClient;
}
