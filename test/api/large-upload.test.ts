// A 1 GiB upload streamed from a sparse file: every byte reaches the sandbox and memory stays flat
// (client and sandbox share this process, so the RSS bound covers both).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { startEnv, type Env } from './sandbox-env.js';

const SIZE = 1024 ** 3;
const MB = 1024 * 1024;
let env: Env;
let sandboxDir: string;
let file: string;

beforeAll(async () => {
  sandboxDir = await mkdtemp(join(tmpdir(), 'sluice-large-sb-'));
  env = await startEnv({ dataDir: sandboxDir });
  file = join(env.dir, 'big.bin');
  const fh = await open(file, 'w');
  await fh.truncate(SIZE);
  await fh.close();
});
afterAll(async () => {
  await env.close();
  await rm(sandboxDir, { recursive: true, force: true });
});

it('streams 1 GiB with flat memory and exact byte count', { timeout: 90_000 }, async () => {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  let lastSent = 0;
  let calls = 0;
  const id = randomUUID();
  const t0 = performance.now();
  try {
    const s = await env.client.upload({
      templateId: TEMPLATE_IDS.transcription,
      streamId: id,
      filePath: file,
      onProgress: (sent, total) => {
        expect(total).toBe(SIZE);
        expect(sent).toBeGreaterThanOrEqual(lastSent);
        lastSent = sent;
        calls++;
        peak = Math.max(peak, process.memoryUsage().rss);
      },
    });
    expect(s.streamId).toBe(id);
  } finally {
    clearInterval(sampler);
  }
  const secs = (performance.now() - t0) / 1000;
  expect(lastSent).toBe(SIZE);
  // What the sandbox received and wrote, byte for byte.
  const received = (await readdir(sandboxDir)).find((n) => n.startsWith(id));
  expect(received).toBeDefined();
  expect((await stat(join(sandboxDir, received ?? ''))).size).toBe(SIZE);
  const grew = (peak - baseline) / MB;
  console.log(
    `large upload: ${SIZE / MB} MiB in ${secs.toFixed(1)} s = ${(SIZE / MB / secs).toFixed(0)} MiB/s; ` +
      `RSS baseline ${(baseline / MB).toFixed(0)} MiB, peak ${(peak / MB).toFixed(0)} MiB (+${grew.toFixed(0)} MiB); ${calls} progress calls`,
  );
  expect(grew).toBeLessThan(300);
});

it(
  'every byte arrives as it is on disk, with the read buffers taken in turn under backpressure',
  { timeout: 60_000 },
  async () => {
    // Distinct bytes everywhere (a sparse file is all zeros and would hide a buffer refilled too early).
    const content = randomBytes(48 * MB + 4321);
    const source = join(env.dir, 'distinct.bin');
    await writeFile(source, content);
    const id = randomUUID();
    await env.client.upload({ templateId: TEMPLATE_IDS.transcription, streamId: id, filePath: source });
    const received = (await readdir(sandboxDir)).find((n) => n.startsWith(id));
    expect(received).toBeDefined();
    const got = await readFile(join(sandboxDir, received ?? ''));
    expect(got.length).toBe(content.length);
    const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
    expect(sha(got)).toBe(sha(content));
  },
);
