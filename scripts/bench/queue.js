// The queue against a sandbox with a fixed processing delay: makespan of many small files vs the
// lower bound set by the limits, and service requests per file vs a naive per-stream poller.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '../../dist/main/api/client.js';
import { jobIds } from '../../dist/main/adapters/queue/intake.js';
import { TEMPLATE_IDS } from '../../dist/main/service/templates.js';
import { Runtime } from '../../dist/main/runtime/runtime.js';
import { fmt, KEY, median, requestCount, sandboxProcess, writeWav } from './common.js';

const TEMPLATE = TEMPLATE_IDS.transcription;

/** `n` distinct short WAVs in `dir`; returns their paths. */
function makeFiles(dir, n) {
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: n }, (_, i) => {
    const file = path.join(dir, `clip-${String(i).padStart(5, '0')}.wav`);
    writeWav(file, 0.25, i);
    return file;
  });
}

async function runSluice(work, name, url, folder, limits) {
  const rt = await Runtime.open({
    stateDir: path.join(work, `${name}-state`),
    connection: { baseUrl: url },
    credentials: { kind: 'apiKey', apiKey: KEY },
  });
  await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, ...limits } }));
  await rt.start();
  const started = performance.now();
  const ids = jobIds(await rt.queue.addPaths([folder]));
  const jobs = await rt.queue.whenSettled(ids);
  const ms = performance.now() - started;
  await rt.close();
  const done = jobs.filter((j) => j.state === 'completed').length;
  if (done !== ids.length) throw new Error(`${name}: only ${done} of ${ids.length} completed`);
  return ms;
}

export async function benchMakespan(work, log) {
  const n = Number(process.env.SLUICE_BENCH_FILES ?? 1000);
  const delay = 4000;
  const limits = { uploadConcurrency: 2, maxStreamsInFlight: 100 };
  const folder = path.join(work, 'makespan');
  const files = makeFiles(folder, n);
  const sb = await sandboxProcess({ SLUICE_SANDBOX_FIXED_PROCESSING_MS: String(delay) });
  try {
    // The upload-bound term needs the time of one small upload on this machine, this run.
    const client = createClient({ baseUrl: sb.url, credentials: { kind: 'apiKey', apiKey: KEY } });
    const times = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await client.upload({
        filePath: files[0],
        templateId: TEMPLATE,
        streamId: randomUUID(),
      });
      times.push(performance.now() - t);
    }
    await client.close();
    const tUp = median(times);
    log(`makespan: ${n} files, delay ${delay} ms, ${limits.maxStreamsInFlight} streams in flight`);
    const ms = await runSluice(work, 'makespan', sb.url, folder, limits);
    const streamBound = Math.ceil(n / limits.maxStreamsInFlight) * delay;
    const uploadBound = (n * tUp) / limits.uploadConcurrency;
    const bound = Math.max(streamBound, uploadBound);
    return [
      {
        name: `Makespan, ${n} small files`,
        value: `${fmt(ms / 1000, 1)} s`,
        baseline: `lower bound ${fmt(bound / 1000, 1)} s`,
        ratio: fmt(ms / bound),
        target: '≤ 1.05',
        met: ms / bound <= 1.05,
        note: `lower bound = max(⌈N/M⌉·D, N·t_up/U) = max(⌈${n}/${limits.maxStreamsInFlight}⌉·${delay} ms, ${n}·${fmt(tUp, 1)} ms/${limits.uploadConcurrency}) with N files, M streams in flight, D the sandbox's fixed processing time, U upload concurrency, t_up the median single small upload measured in this run`,
      },
    ];
  } finally {
    await sb.stop();
  }
}

/** What a simple client does: upload all, poll every stream by id every second, export each. */
async function naive(url, files) {
  const client = createClient({ baseUrl: url, credentials: { kind: 'apiKey', apiKey: KEY } });
  const ids = [];
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < files.length) {
        const f = files[next++];
        const id = randomUUID();
        await client.upload({ filePath: f, templateId: TEMPLATE, streamId: id });
        ids.push(id);
      }
    }),
  );
  let pending = ids;
  while (pending.length > 0) {
    await new Promise((r) => setTimeout(r, 1000));
    const states = await Promise.all(pending.map(async (id) => [id, (await client.findStream(id)).state]));
    pending = states.filter(([, s]) => s === 'READY').map(([id]) => id);
  }
  for (const id of ids) await client.exportJson(id);
  await client.close();
}

export async function benchRequests(work, log) {
  const n = Number(process.env.SLUICE_BENCH_INFLIGHT ?? 500);
  const delay = 8000;
  const folder = path.join(work, 'requests');
  const files = makeFiles(folder, n);
  const sb = await sandboxProcess({ SLUICE_SANDBOX_FIXED_PROCESSING_MS: String(delay) });
  try {
    log(`requests: ${n} streams in flight, Sluice`);
    const before = requestCount(await sb.stats());
    await runSluice(work, 'requests', sb.url, folder, { uploadConcurrency: 2, maxStreamsInFlight: n });
    const sluice = (requestCount(await sb.stats()) - before) / n;
    log(`requests: ${n} streams in flight, naive poller`);
    const mid = requestCount(await sb.stats());
    await naive(sb.url, files);
    const base = (requestCount(await sb.stats()) - mid) / n;
    return [
      {
        name: `Service requests per file, ${n} in flight`,
        value: fmt(sluice),
        baseline: `per-stream polling every 1 s: ${fmt(base)}`,
        ratio: fmt(sluice / base),
        target: '≤ 4 per file',
        met: sluice <= 4,
        note: `sandbox processing ${delay} ms per stream; requests counted by the sandbox (upload, reads, listing pages, export)`,
      },
    ];
  } finally {
    await sb.stop();
  }
}
