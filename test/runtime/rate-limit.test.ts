// A service answering 429 to every second request (the sandbox's rate-limit fault, over HTTP):
// the file finishes in bounded time and few uploads (it cycled uploading → queued without end: a
// lookup before each retry took the one request let through), and the command line says why it
// waits ("Rate-limited by the service, retrying in N s").
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { jobIds } from '../../main/adapters/queue/intake.js';
import { plainProgress } from '../../main/cli/progress.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';

const KEY = 'test-key';
let dir: string;
let sandbox: Sandbox;
let rt: Runtime | undefined;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-rate-limit-');
});
afterEach(async () => {
  await rt?.close().catch(() => undefined);
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

it('every second request refused with 429: one file finishes within seconds, and its wait is said', async () => {
  sandbox = await startSandbox({
    apiKey: KEY,
    speedFactor: 0.02,
    faults: { rateLimit: { everyKth: 2, retryAfterS: 0 } },
  });
  const runtime = await Runtime.open({
    stateDir: path.join(dir, '.state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    ctx: { poll: { initialMs: 30, maxMs: 150, factor: 1.5, flatMs: 0 } },
  });
  rt = runtime;
  await runtime.start();
  const file = await makeToneWav(dir, 'take.wav', 1);
  let out = '';
  const lines = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const started = Date.now();
  const ids = jobIds(await runtime.queue.addPaths([file]));
  const progress = plainProgress(runtime, new Set(ids), lines as unknown as typeof process.stdout);
  const [job] = await runtime.queue.whenSettled(ids);
  progress.stop();
  const elapsed = Date.now() - started;
  console.info(`1 file, every 2nd request refused: ${elapsed} ms`, sandbox.stats(), out);
  expect(job?.state).toBe('completed');
  // Refused and retried, but not cycling: an upload or two more, not dozens.
  expect(sandbox.stats().upload ?? 0).toBeLessThanOrEqual(4);
  // The first upload is the second request (after the template list): refused, and said so.
  expect(out).toMatch(/^queued \S*take\.wav Rate-limited by the service, retrying in \d+ s$/m);
}, 60_000);
