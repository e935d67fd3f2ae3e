// History's queries at 100,000 archived jobs (SLUICE_BENCH_HISTORY_JOBS): the first page, a state
// filter, a search by name, a date range, a sort by name and a deep page, each timed first after a
// start (a new store and History, as after launching) and then as the median of 7. Baseline,
// measured in the same run: reading the archive's summary rows once, the least every query did
// before History had its index, and that plain scan's own first page.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { JOB_ARCHIVE } from '../../dist/main/adapters/store/archive/job-archive-spec.js';
import { JobStore } from '../../dist/main/adapters/store/journal/job-store.js';
import { sqliteDriver } from '../../dist/main/adapters/store/sqlite.js';
import { createJob } from '../../dist/main/engine/job.js';
import { ExternalStreams, History } from '../../dist/main/runtime/history.js';
import { fmt, median, root } from './common.js';

const run = promisify(execFile);

const DAY = 86_400_000;
const NAMES = [
  'Interview Jürgen',
  'Interview Ju\u0308rgen',
  'Straßen Umfrage',
  'Café Müller',
  'take',
  'Pressekonferenz',
];
const STATES = ['completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'failed', 'canceled'];

/** `n` finished jobs over a year, archived through the app's own store (compacted as it goes). */
function writeArchive(dir, n, now) {
  const store = JobStore.open(dir, { fsync: 'never', archive: JOB_ARCHIVE, now: () => now });
  const t0 = now - 400 * DAY;
  for (let i = 0; i < n; i++) {
    const src = `/media/show-${i % 40}/day-${i % 300}/${NAMES[i % NAMES.length]} ${i}.wav`;
    const createdAt = t0 + Math.floor((i * 365 * DAY) / n);
    const state = STATES[i % STATES.length];
    const job = createJob(
      {
        id: randomUUID(),
        source: { path: src, size: 48_000_000 + i, mtimeMs: createdAt },
        origin: { kind: 'watch', folderId: `f${i % 5}` },
        seq: i,
        templateId: 'transcribe',
        params: {},
      },
      createdAt,
    );
    store.put({
      ...job,
      state,
      streamId: randomUUID(),
      completedAt: createdAt + 61_000,
      updatedAt: createdAt + 61_000,
      results:
        state === 'completed'
          ? [
              {
                format: 'json',
                path: src.replace(/\.wav$/, '.json'),
                writtenBySluice: true,
                size: 20_000,
                mtimeMs: createdAt,
              },
            ]
          : [],
    });
    if (i % 10_000 === 9_999) store.compact();
  }
  store.compact();
  store.close();
}

function historyOf(store) {
  return new History({
    store,
    external: new ExternalStreams(async function* () {}),
    searchTranscripts: async () => undefined,
  });
}

/** The store as History saw it before its index: the archive's rows read for every query. */
function withoutIndex(store) {
  const bare = new Proxy(store.archived, { get: (t, k) => (k === 'history' ? undefined : Reflect.get(t, k)) });
  return Object.create(store, { archived: { get: () => bare } });
}

export async function benchHistory(work, log) {
  const n = Number(process.env.SLUICE_BENCH_HISTORY_JOBS ?? 100_000);
  const dir = path.join(work, 'history-state');
  const now = Date.now();
  log(`history: archiving ${n} jobs`);
  const w0 = performance.now();
  writeArchive(dir, n, now);
  const writeS = (performance.now() - w0) / 1000;
  const open = () => JobStore.open(dir, { fsync: 'never', archive: JOB_ARCHIVE, now: () => now });
  const t0 = now - 400 * DAY;
  const queries = {
    'first page': { includeExternal: false },
    'state filter': { states: ['failed'], includeExternal: false },
    search: { search: 'jurgen 1234', includeExternal: false },
    'date range': { from: t0 + 100 * DAY, to: t0 + 130 * DAY, includeExternal: false },
    'by name': { sort: { by: 'name', dir: 'asc' }, includeExternal: false },
    'middle page': { page: Math.floor(n / 200), includeExternal: false },
  };
  const first = {};
  const again = {};
  for (const [name, q] of Object.entries(queries)) {
    const firsts = [];
    const runs = [];
    for (let r = 0; r < 3; r++) {
      const store = open();
      if (!store.archived?.history) throw new Error('History has no index (no SQLite in this Node)');
      const h = historyOf(store);
      let s0 = performance.now();
      const res = await h.query(q);
      firsts.push(performance.now() - s0);
      if (res.items.length === 0) throw new Error(`History's ${name} found nothing`);
      for (let i = 0; i < (r === 0 ? 7 : 0); i++) {
        s0 = performance.now();
        await h.query(q);
        runs.push(performance.now() - s0);
      }
      store.close();
    }
    first[name] = median(firsts);
    again[name] = median(runs);
  }
  // Baselines: the archive's summary rows read once, and the plain scan's first page.
  const store = open();
  const rowsMs = [];
  const scanMs = [];
  for (let i = 0; i < 3; i++) {
    let b0 = performance.now();
    const rows = store.archived.rows();
    rowsMs.push(performance.now() - b0);
    if (rows.length !== n) throw new Error(`the archive holds ${rows.length} of ${n} rows`);
    b0 = performance.now();
    await historyOf(withoutIndex(store)).query(queries['first page']);
    scanMs.push(performance.now() - b0);
  }
  const reopen = [];
  for (let i = 0; i < 3; i++) {
    const o0 = performance.now();
    open().close();
    reopen.push(performance.now() - o0);
  }
  store.close();
  const status = await benchStatus(dir, n);
  const worst = Math.max(...Object.values(first), ...Object.values(again));
  const base = median(rowsMs);
  const list = (m) =>
    Object.entries(m)
      .map(([k, v]) => `${k} ${fmt(v, 0)}`)
      .join(', ');
  return [
    {
      name: `History queries at ${n} archived jobs`,
      value: `slowest ${fmt(worst, 0)} ms`,
      baseline: `archive summary read once: ${fmt(base, 0)} ms (plain scan's first page: ${fmt(median(scanMs), 0)} ms)`,
      ratio: fmt(worst / base),
      target: '< 200 ms each',
      met: worst < 200,
      note:
        `SQLite: ${sqliteDriver()}. First after a start (median of 3 starts), ms: ${list(first)}. ` +
        `Again (median of 7), ms: ${list(again)}. Archiving ${n} jobs (the index built as they go): ` +
        `${fmt(writeS, 1)} s; opening the store with its index: ${fmt(median(reopen), 0)} ms. ` +
        `Words inside transcripts are the transcript row's search.`,
    },
    status,
  ];
}

/**
 * `sluice status` on the same archive against `sluice --version` (the same start-up, nothing read),
 * medians of 5 interleaved runs; its counts must add up to every archived job. The note gives what
 * status did before: the whole archive read (`JobStore.snapshot`), timed in this process.
 */
async function benchStatus(dir, n) {
  const bin = path.join(root, 'bin/sluice.js');
  const status = [];
  const version = [];
  let counted = 0;
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    await run(process.execPath, [bin, '--version']);
    version.push(performance.now() - t);
    t = performance.now();
    const { stdout } = await run(process.execPath, [bin, 'status', '--json', '--state-dir', dir], {
      maxBuffer: 1 << 26,
    });
    status.push(performance.now() - t);
    counted = Object.values(JSON.parse(stdout).counts).reduce((a, b) => a + b, 0);
  }
  if (counted !== n) throw new Error(`sluice status counted ${counted} of ${n} jobs`);
  const scan = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    JobStore.snapshot(dir);
    scan.push(performance.now() - t);
  }
  const extra = median(status) - median(version);
  return {
    name: `\`sluice status\` at ${n} archived jobs`,
    value: `${fmt(median(status), 0)} ms`,
    baseline: `sluice --version: ${fmt(median(version), 0)} ms`,
    ratio: fmt(median(status) / median(version)),
    target: '≤ --version + 200 ms',
    met: extra <= 200,
    note: `medians of 5 interleaved runs; counts add up to all ${n} jobs; reading the whole archive as status did before: ${fmt(median(scan), 0)} ms in process`,
  };
}
