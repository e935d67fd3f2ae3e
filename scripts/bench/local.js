// Local work: 10,000 files landing in a watched folder until all are queued, and engine start-up
// with 100,000 jobs in the history.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { JobStore } from '../../dist/main/adapters/store/job-store.js';
import { TEMPLATE_IDS } from '../../dist/main/service/templates.js';
import { createJob } from '../../dist/main/engine/job.js';
import { Runtime } from '../../dist/main/runtime.js';
import { fmt, KEY, median, writeWav } from './common.js';

// Nothing is sent during these two: an unreachable URL proves it (any request would fail loudly).
const NO_SERVICE = { baseUrl: 'http://127.0.0.1:9' };

export async function benchWatch(work, log) {
  const n = Number(process.env.SLUICE_BENCH_WATCH_FILES ?? 10_000);
  const folder = path.join(work, 'watched');
  mkdirSync(folder, { recursive: true });
  const rt = await Runtime.open({
    stateDir: path.join(work, 'watch-state'),
    connection: NO_SERVICE,
    credentials: { kind: 'apiKey', apiKey: KEY },
  });
  const settleMs = rt.settings.get().queue.settleMs;
  await rt.updateSettings((s) => ({ ...s, watchFolders: [{ id: 'bench', path: folder }] }));
  rt.pause('benchmark: queue only');
  let added = 0;
  let allQueued;
  const done = new Promise((resolve) => (allQueued = resolve));
  rt.on((e) => {
    if (e.type === 'job:added' && ++added === n) allQueued(performance.now());
  });
  await rt.start({ watch: true });
  log(`watch: writing ${n} files`);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) writeWav(path.join(folder, `take-${String(i).padStart(5, '0')}.wav`), 0.05, i);
  const landed = performance.now();
  const queuedAt = await done;
  await rt.close();
  // Baseline: the least any detector honouring the settle rule can take — the settle time plus one
  // walk (readdir + stat of every file), measured now.
  const w0 = performance.now();
  for (const f of readdirSync(folder)) statSync(path.join(folder, f));
  const walk = performance.now() - w0;
  const ms = queuedAt - landed;
  const base = settleMs + walk;
  return [
    {
      name: `${n} files landing in a watched folder → all queued`,
      value: `${fmt(ms / 1000, 2)} s`,
      baseline: `settle ${settleMs} ms + one walk ${fmt(walk, 0)} ms`,
      ratio: fmt(ms / base),
      target: '< 10 s',
      met: ms < 10_000,
      note: `measured from the last file written (writing took ${fmt((landed - t0) / 1000, 1)} s) to the ${n}th job added, default settle time`,
    },
  ];
}

/** A journal of `n` completed jobs, written through the app's own job store. */
function writeHistory(dir, n) {
  const store = JobStore.open(dir, { fsync: 'never' });
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const src = `/media/projects/show-${i % 40}/day-${i % 300}/interview take ${i}.wav`;
    const createdAt = now - i * 60_000;
    const job = createJob(
      {
        id: randomUUID(),
        source: { path: src, size: 48_000_000 + i, mtimeMs: now - i * 1000 },
        origin: { kind: 'watch', folderId: `f${i % 5}` },
        seq: i,
        templateId: TEMPLATE_IDS.diarization,
        params: { language: ['en', 'de'], summary: true },
        output: { formats: ['json', 'srt'], pattern: '{name}', languageSuffix: null, txtTimestamps: false },
      },
      createdAt,
    );
    store.put({
      ...job,
      state: 'completed',
      streamId: randomUUID(),
      attempts: { upload: 1, export: 1 },
      uploadedBytes: job.totalBytes,
      uploadConfirmed: true,
      stream: { state: 'COMPLETED', stateDescription: null },
      startedAt: createdAt + 10,
      uploadedAt: createdAt + 5000,
      finalizedAt: createdAt + 60_000,
      completedAt: createdAt + 61_000,
      updatedAt: createdAt + 61_000,
      results: [
        { format: 'json', path: src.replace(/\.wav$/, '.json'), writtenBySluice: true, size: 20_000, mtimeMs: now },
        { format: 'srt', path: src.replace(/\.wav$/, '.srt'), writtenBySluice: true, size: 4_000, mtimeMs: now },
      ],
    });
  }
  store.close();
}

export async function benchStartup(work, log) {
  const n = Number(process.env.SLUICE_BENCH_HISTORY ?? 100_000);
  const dir = path.join(work, 'startup-state');
  log(`startup: writing ${n} history entries`);
  writeHistory(dir, n);
  const file = path.join(dir, 'jobs.jsonl');
  const sluice = [];
  const base = [];
  for (let i = 0; i < 3; i++) {
    const b0 = performance.now();
    // Baseline: read the journal and parse every line, nothing else.
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line) JSON.parse(line);
    base.push(performance.now() - b0);
    const t0 = performance.now();
    const rt = await Runtime.open({
      stateDir: dir,
      connection: NO_SERVICE,
      credentials: { kind: 'apiKey', apiKey: KEY },
    });
    await rt.start();
    sluice.push(performance.now() - t0);
    if (rt.jobs().length !== n) throw new Error(`loaded ${rt.jobs().length} of ${n} jobs`);
    await rt.close();
  }
  const ms = median(sluice);
  const b = median(base);
  return [
    {
      name: `Engine start-up, ${n} jobs in history`,
      value: `${fmt(ms, 0)} ms`,
      baseline: `read + JSON.parse every line: ${fmt(b, 0)} ms`,
      ratio: fmt(ms / b),
      target: '< 1 s',
      met: ms < 1000,
      note: `median of 3; journal ${fmt(statSync(file).size / 1e6, 0)} MB`,
    },
  ];
}
