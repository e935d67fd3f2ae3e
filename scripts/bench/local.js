// Local work: 10,000 files landing in a watched folder until all are queued, and engine start-up
// with 100,000 jobs in the history (and its memory beside 10,000).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { JobStore } from '../../dist/main/adapters/store/journal/job-store.js';
import { TEMPLATE_IDS } from '../../dist/main/service/templates.js';
import { createJob } from '../../dist/main/engine/job.js';
import { Runtime } from '../../dist/main/runtime/runtime.js';
import { fmt, KEY, median, root, writeWav } from './common.js';

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
  rt.queue.pause('benchmark: queue only');
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
      target: '< 5 s',
      met: ms < 5_000,
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

/** One start-up in its own process: { readyMs, heapUsed, rss, history, hot }. */
function startupChild(dir) {
  const out = execFileSync(process.execPath, ['--expose-gc', path.join(root, 'scripts/bench/startup-child.js'), dir], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop());
}

export async function benchStartup(work, log) {
  const n = Number(process.env.SLUICE_BENCH_HISTORY ?? 100_000);
  const small = Math.round(n / 10);
  const dir = path.join(work, 'startup-state');
  const smallDir = path.join(work, 'startup-state-small');
  log(`startup: writing ${n} and ${small} history entries (one journal each, as before the archive)`);
  writeHistory(dir, n);
  writeHistory(smallDir, small);
  const legacy = path.join(work, 'startup-legacy');
  cpSync(dir, legacy, { recursive: true });
  const file = path.join(legacy, 'jobs.jsonl');
  const journalMb = statSync(file).size / 1e6;

  // The first open after the upgrade moves the finished jobs into the archive (once).
  log('startup: first open (migration into the archive)');
  const first = startupChild(dir);
  startupChild(smallDir);
  if (first.history !== n) throw new Error(`history holds ${first.history} of ${n} jobs after migration`);

  const sluice = [];
  const before = [];
  const parse = [];
  for (let i = 0; i < 3; i++) {
    // Before the archive, start-up loaded the whole journal: that load, measured now.
    const l0 = performance.now();
    const whole = JobStore.open(legacy, { fsync: 'never' });
    before.push(performance.now() - l0);
    if (whole.size !== n) throw new Error(`the whole journal held ${whole.size} of ${n} jobs`);
    whole.close();
    const b0 = performance.now();
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line) JSON.parse(line);
    parse.push(performance.now() - b0);
    const t0 = performance.now();
    const rt = await Runtime.open({
      stateDir: dir,
      connection: NO_SERVICE,
      credentials: { kind: 'apiKey', apiKey: KEY },
    });
    await rt.start();
    sluice.push(performance.now() - t0);
    await rt.close();
  }
  const ms = median(sluice);
  const b = median(before);
  const mem = { [n]: [], [small]: [] };
  for (let i = 0; i < 3; i++)
    for (const [k, d] of [
      [n, dir],
      [small, smallDir],
    ])
      mem[k].push(startupChild(d));
  const heap = (k) => median(mem[k].map((m) => m.heapUsed)) / 1e6;
  const rss = (k) => median(mem[k].map((m) => m.rss)) / 1e6;
  const hot = mem[n][0].hot;
  return [
    {
      name: `Engine start-up, ${n} jobs in history`,
      value: `${fmt(ms, 0)} ms`,
      baseline: `before the archive (whole journal loaded): ${fmt(b, 0)} ms`,
      ratio: fmt(ms / b),
      target: '< 300 ms',
      met: ms < 300,
      note:
        `median of 3, in process; ${hot} recent jobs stay in the journal, the rest are archived. ` +
        `Journal before the archive ${fmt(journalMb, 0)} MB (read + JSON.parse of every line alone: ${fmt(median(parse), 0)} ms). ` +
        `First open after the upgrade (moving ${n - first.hot} jobs into the archive): ${fmt(first.readyMs / 1000, 1)} s, once.`,
    },
    {
      name: `Memory after start-up, ${small} vs ${n} jobs in history`,
      value: `heap ${fmt(heap(n), 0)} MB, RSS ${fmt(rss(n), 0)} MB`,
      baseline: `${small} jobs: heap ${fmt(heap(small), 0)} MB, RSS ${fmt(rss(small), 0)} MB`,
      ratio: fmt(heap(n) / heap(small)),
      target: 'about equal',
      met: heap(n) < heap(small) * 1.25 + 2,
      note: `median of 3 fresh processes each, after a full GC; ratio is heap ${n} / heap ${small}`,
    },
  ];
}
