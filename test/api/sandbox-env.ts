// Shared set-up of the integration tests: a sandbox on loopback and a client pointed at it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { makeToneWav } from '../helpers/media.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../main/sandbox/index.js';
import {
  createClient,
  ServiceError,
  type ClientOptions,
  type SluiceClient,
  type StreamDto,
  type StreamState,
} from '../../main/api/index.js';

export const API_KEY = 'k';

export interface Env {
  sb: Sandbox;
  client: SluiceClient;
  dir: string;
  sleeps: number[];
  /** A client with other options against the same sandbox (closed with the env). */
  another(opts: Partial<ClientOptions>): SluiceClient;
  close(): Promise<void>;
}

export async function startEnv(sandbox: SandboxOptions = {}, client: Partial<ClientOptions> = {}): Promise<Env> {
  const sb = await startSandbox({ port: 0, apiKey: API_KEY, speedFactor: 0.01, ...sandbox });
  const dir = await mkdtemp(join(tmpdir(), 'sluice-api-it-'));
  const sleeps: number[] = [];
  const clients: SluiceClient[] = [];
  const another = (opts: Partial<ClientOptions>): SluiceClient => {
    const c = createClient({
      baseUrl: sb.url,
      credentials: { kind: 'apiKey', apiKey: API_KEY },
      // Backoff waits are recorded, not slept: the tests check them, not the wall clock.
      sleep: async (ms) => void sleeps.push(ms),
      ...opts,
    });
    clients.push(c);
    return c;
  };
  return {
    sb,
    client: another(client),
    dir,
    sleeps,
    another,
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await sb.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A tone WAV from the shared media helpers (audible, so the sandbox treats it as speech). */
export function toneWav(dir: string, seconds: number, name = `${randomUUID()}.wav`): Promise<string> {
  return makeToneWav(dir, name, seconds);
}

/** Polls until the stream leaves READY (or reaches `want`). */
export async function waitForState(
  client: SluiceClient,
  id: string,
  want: StreamState[] = ['COMPLETED', 'FAILED'],
  timeoutMs = 10_000,
): Promise<StreamDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await client.findStream(id);
    if (want.includes(s.state)) return s;
    if (Date.now() > deadline) throw new Error(`stream ${id} still ${s.state}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The ServiceError a call rejected with (fails the test when it resolved or threw something else). */
export async function rejection(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ServiceError);
  return e as ServiceError;
}
