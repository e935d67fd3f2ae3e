// Set-up shared by the tests against deliberately broken loopback servers: each test gets a
// server and a client whose backoff sleeps are recorded, and every failure is checked for leaks.
import { afterEach, expect } from 'vitest';
import { createClient, ServiceError, type ClientOptions, type SluiceClient } from '../../main/api/index.js';
import { startBadServer, type BadServer, type Handler } from './bad-server.js';

export const KEY = 'secret-api-key-XYZ';
const servers: BadServer[] = [];
/** Clients made outside setup() go here so they are closed too. */
export const clients: SluiceClient[] = [];
/** Backoff waits asked for since the test started. */
export const sleeps: number[] = [];

/** Registers the clean-up in the calling test file. */
export function useCleanup(): void {
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
    sleeps.length = 0;
  });
}

export async function setup(
  handler: Handler,
  extra: Partial<ClientOptions> = {},
  readBody = true,
): Promise<{ sb: BadServer; client: SluiceClient }> {
  const sb = await startBadServer(handler, { readBody });
  servers.push(sb);
  const client = createClient({
    baseUrl: sb.url,
    credentials: { kind: 'apiKey', apiKey: KEY },
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
    ...extra,
  });
  clients.push(client);
  return { sb, client };
}

export async function failure(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ServiceError);
  const se = e as ServiceError;
  // Never a credential in what a person or a log sees.
  expect(se.message).not.toContain(KEY);
  expect(JSON.stringify(se)).not.toContain(KEY);
  return se;
}
