// Local work: 10,000 files landing in a watched folder until all are queued, and engine start-up
// with 100,000 jobs in the history.
import { randomUUID } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, readdirSync, statSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
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

export function writeHistory(dir, n) {
  mkdirSync(dir, { recursive: true });
  const fd = openSync(path.join(dir, 'jobs.jsonl'), 'w');
  writeSync(fd, `${JSON.stringify({ h: 'sluice-jobs', v: 1 })}\n`);
  const now = Date.now();
  let chunk = '';
  for (let i = 0; i < n; i++) {
    const src = `/media/projects/show-${i % 40}/day-${i % 300}/interview take ${i}.wav`;
    const job = {
      id: randomUUID(),
      source: { path: src, size: 48_000_000 + i, mtimeMs: now - i * 1000 },
      origin: { kind: 'watch', folderId: `f${i % 5}` },
      priority: 1,
      seq: i,
      templateId: '669fee048452492b62cfad39',
      params: { language: ['en', 'de'], summary: true },
      output: { formats: ['json', 'srt'], pattern: '{name}', languageSuffix: null, txtTimestamps: false },
      state: 'completed',
      streamId: randomUUID(),
      previousStreamIds: [],
      verifyStream: false,
      attempts: { upload: 1, export: 1 },
      failures: 0,
      uploadedBytes: 48_000_000 + i,
      totalBytes: 48_000_000 + i,
      uploadConfirmed: true,
      stream: { state: 'COMPLETED', stateDescription: null },
      createdAt: now - i * 60_000,
      startedAt: now - i * 60_000 + 10,
      uploadedAt: now - i * 60_000 + 5000,
      finalizedAt: now - i * 60_000 + 60_000,
      completedAt: now - i * 60_000 + 61_000,
      updatedAt: now - i * 60_000 + 61_000,
      stuck: false,
      results: [
        { format: 'json', path: src.replace(/\.wav$/, '.json'), writtenBySluice: true, size: 20_000, mtimeMs: now },
        { format: 'srt', path: src.replace(/\.wav$/, '.srt'), writtenBySluice: true, size: 4_000, mtimeMs: now },
      ],
      canceledByUser: false,
    };
    chunk += `${JSON.stringify({ p: job })}\n`;
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
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
