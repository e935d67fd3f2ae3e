// History answered by the archive's SQL index gives what the plain scan of the archive's rows gives:
// a generated archive of a few thousand jobs (names composed and decomposed, ß, astral characters,
// jobs archived twice and jobs brought back into the journal), every sort key both ways, filters,
// date ranges, searches by name and by transcript, first and later pages. The index also catches
// up with rows committed while it was behind (a crash), and is rebuilt from a damaged file.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryIndex } from '../../main/adapters/store/history/history-index.js';
import { readHistory, readStatus } from '../../main/adapters/store/history/history-read.js';
import { JOB_ARCHIVE } from '../../main/adapters/store/archive/job-archive-spec.js';
import type { JobArchive } from '../../main/adapters/store/archive/job-archive.js';
import { JobStore } from '../../main/adapters/store/journal/job-store.js';
import { sqliteDriver } from '../../main/adapters/store/sqlite.js';
import { createJob, type JobRecord, type JobState } from '../../main/engine/job.js';
import { ExternalStreams, History, type HistoryFilter, type HistoryItem } from '../../main/runtime/history.js';

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const N = 3000;
const STATES: JobState[] = ['completed', 'completed', 'completed', 'failed', 'canceled', 'expired'];
/** Computers of a shared folder (one name with an accent, folded like file names). */
const HOSTS = ['EDIT-BAY-2', 'Édit-Bay-3', 'Mac Studio'];
const NAMES = [
  'Interview Jürgen', // composed ü
  'Interview Ju\u0308rgen', // decomposed, as macOS stores names
  'STRASSEN Umfrage',
  'Straßen Umfrage',
  'Café Müller',
  'CAFE\u0301 noir',
  'take',
  '🎤 podcast',
  'Ölpreis Analyse',
  'ab-cd',
];

let dir: string;
let store: JobStore<JobRecord>;
const transcriptHits: Record<string, string[]> = { mikrofon: [], 'interview mikrofon': [] };

function job(n: number, over: Partial<JobRecord> = {}): JobRecord {
  const state = STATES[n % STATES.length]!;
  const base = createJob(
    {
      id: `job-${String(n).padStart(5, '0')}`,
      source: {
        path: `/media/${NAMES[n % NAMES.length]} ${n % 97}.wav`,
        size: 1000 + ((n * 7919) % 5000),
        mtimeMs: T0,
      },
      origin: n % 3 === 0 ? { kind: 'manual' } : { kind: 'watch', folderId: `f${n % 3}` },
      seq: n,
      templateId: n % 4 === 0 ? 'summary' : 'transcribe',
      params: {},
    },
    // Several jobs share a creation time, so the tie-break decides their order.
    T0 + Math.floor(n / 3) * 3_600_000,
  );
  return {
    ...base,
    state,
    completedAt: state === 'completed' ? base.createdAt + (n % 11) * 60_000 : undefined,
    streamId: `s-${n}`,
    ...(n % 7 === 0 ? { processedBy: HOSTS[n % HOSTS.length] } : {}),
    ...over,
  } as JobRecord;
}

/** The same store without its index: the plain scan History falls back to. */
function withoutIndex(s: JobStore<JobRecord>): JobStore<JobRecord> {
  const archive = s.archived!;
  const bare = new Proxy(archive, {
    get: (t, k) => (k === 'history' ? undefined : (Reflect.get(t, k) as unknown)),
  }) as JobArchive<JobRecord>;
  return Object.create(s, { archived: { get: () => bare } }) as JobStore<JobRecord>;
}

function historyOf(s: JobStore<JobRecord>): History {
  return new History({
    store: s,
    external: new ExternalStreams(async function* () {}),
    searchTranscripts: async (q) => {
      const ids = transcriptHits[q.toLowerCase()];
      if (!ids) return undefined;
      return { has: (id) => ids.includes(id), ids: () => ids, match: async () => undefined };
    },
  });
}

const keys = (items: HistoryItem[]): string[] =>
  items.map((i) => (i.origin === 'local' ? `${i.job.id}:${i.job.templateId}${i.match ? ':t' : ''}` : 'external'));

const skip = sqliteDriver() === undefined ? 'no SQLite in this Node (neither node:sqlite nor better-sqlite3)' : '';

describe.skipIf(skip !== '')(`History's index ${skip}`, () => {
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sluice-history-index-'));
    const now = T0 + 400 * DAY;
    store = JobStore.open<JobRecord>(dir, { fsync: 'never', archive: JOB_ARCHIVE, now: () => now });
    for (let n = 0; n < N; n++) store.put(job(n));
    store.compact();
    // Archived a second time with another template: the later line wins.
    for (let n = 0; n < N; n += 50) store.put(job(n, { templateId: 'again' }));
    store.compact();
    // Back in the journal (an action on it), and new jobs that never left it.
    for (let n = 5; n < N; n += 200) store.put(job(n, { state: 'queued', completedAt: undefined }));
    for (let n = N; n < N + 20; n++) store.put(job(n, { state: 'uploading', completedAt: undefined }));
    transcriptHits.mikrofon = ['job-00007', 'job-00070', 'job-00705', `job-0${N + 3}`];
    transcriptHits['interview mikrofon'] = ['job-00012', 'job-00700'];
    expect(store.archived?.history).toBeDefined();
  }, 60_000);

  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const queries: HistoryFilter[] = [
    {},
    { states: ['failed'] },
    { states: ['completed', 'queued'] },
    { templateIds: ['again'] },
    { folderIds: ['manual'] },
    { folderIds: ['f1', 'f2'], states: ['expired'] },
    { from: T0 + 10 * DAY, to: T0 + 20 * DAY },
    { from: T0 + 30 * DAY },
    { search: 'jurgen' },
    { search: 'JÜRGEN interview' },
    { search: 'strassen' },
    { search: 'straßen' },
    { search: 'cafe' },
    { search: 'olpreis' },
    { search: 'ab' },
    { search: '🎤' },
    { search: '-' },
    { search: 'mikrofon' },
    { search: 'interview mikrofon' },
    { search: 'nothing-like-this' },
    { search: 'bay-2' },
    { search: 'edit bay' },
    { search: 'studio interview' },
    { search: 'take', states: ['completed'], from: T0 + 5 * DAY },
    { computers: ['EDIT-BAY-2'] },
    // Letter case ignored (ASCII, as host names): the same computer.
    { computers: ['edit-bay-2', 'Mac Studio'], states: ['completed', 'queued'] },
    { computers: ['Édit-Bay-3'], search: 'cafe' },
    { computers: ['Mac Studio'], folderIds: ['f1'], from: T0 + 10 * DAY },
  ];
  const sorts: HistoryFilter['sort'][] = [
    undefined,
    { by: 'created', dir: 'asc' },
    { by: 'completed', dir: 'desc' },
    { by: 'name', dir: 'asc' },
    { by: 'name', dir: 'desc' },
    { by: 'state', dir: 'asc' },
    { by: 'size', dir: 'desc' },
    { by: 'computer', dir: 'asc' },
    { by: 'computer', dir: 'desc' },
  ];

  it('answers every filter, sort and page as the plain scan does', async () => {
    const indexed = historyOf(store);
    const scanned = historyOf(withoutIndex(store));
    let compared = 0;
    for (const q of queries) {
      for (const sort of sorts) {
        // A first page, a later one of an odd size, and (in the default order) a deep one.
        const pages = sort
          ? [
              [0, 100],
              [3, 37],
            ]
          : [
              [0, 100],
              [3, 37],
              [40, 50],
            ];
        for (const [page, pageSize] of pages as Array<[number, number]>) {
          const f: HistoryFilter = { ...q, ...(sort ? { sort } : {}), page, pageSize, includeExternal: false };
          const a = await indexed.query(f);
          const b = await scanned.query(f);
          expect(a.total, JSON.stringify(f)).toBe(b.total);
          expect(keys(a.items), JSON.stringify(f)).toEqual(keys(b.items));
          expect(a.computers, JSON.stringify(f)).toEqual(b.computers);
          compared += a.items.length;
        }
      }
    }
    // The queries find something: equal empty answers would prove nothing.
    expect(compared).toBeGreaterThan(8_000);
    const accents = await indexed.query({ search: 'jurgen', pageSize: 1000, includeExternal: false });
    expect(accents.total).toBeGreaterThan(500);
    expect(accents.items.some((i) => i.origin === 'local' && i.job.source.path.includes('u\u0308'))).toBe(true);
    expect(accents.items.some((i) => i.origin === 'local' && i.job.source.path.includes('ü'))).toBe(true);
    // The computer that processed a job finds it, its name folded like file names; names alone do not.
    const bays = await indexed.query({ search: 'EDIT bay', pageSize: 1000, includeExternal: false });
    expect(bays.total).toBeGreaterThan(100);
    const hosts = new Set(bays.items.map((i) => (i.origin === 'local' ? i.job.processedBy : 'external')));
    expect([...hosts].sort()).toEqual(['EDIT-BAY-2', 'Édit-Bay-3']);
    const both = await indexed.query({ search: 'studio cafe', pageSize: 1000, includeExternal: false });
    expect(both.total).toBeGreaterThan(10);
    for (const i of both.items) {
      if (i.origin !== 'local') throw new Error('only local jobs expected');
      expect(i.job.processedBy).toBe('Mac Studio');
      expect(i.job.source.path.toLowerCase()).toContain('caf');
    }
  }, 180_000);

  it('filters and sorts by the computer that processed a job, from the index', async () => {
    const indexed = historyOf(store);
    const all = await indexed.query({ pageSize: 10, includeExternal: false });
    // Every computer seen, whatever the filter, so the screen's list does not shrink as one is picked.
    expect(all.computers).toEqual([...HOSTS].sort());
    const bay = await indexed.query({ computers: ['edit-bay-2'], pageSize: 1000, includeExternal: false });
    expect(bay.computers).toEqual(all.computers);
    const plain = JobStore.snapshot<JobRecord>(dir).filter((j) => j.processedBy === 'EDIT-BAY-2');
    expect(plain.length).toBeGreaterThan(50);
    expect(bay.total).toBe(plain.length);
    expect(bay.items.every((i) => i.origin === 'local' && i.job.processedBy === 'EDIT-BAY-2')).toBe(true);
    // Descending: the computers in reverse code point order (É after M), then the jobs of no shared folder.
    const sorted = await indexed.query({
      sort: { by: 'computer', dir: 'desc' },
      pageSize: 500,
      includeExternal: false,
    });
    const order = [...new Set(sorted.items.map((i) => (i.origin === 'local' ? (i.job.processedBy ?? '') : '?')))];
    expect(order).toEqual(['Édit-Bay-3', 'Mac Studio', 'EDIT-BAY-2', '']);
    // `sluice history --computer` reads the same jobs through the index, newest first.
    const cli = readHistory(dir, { states: [], computers: ['EDIT-bay-2'], limit: 5000 });
    expect(cli.map((j) => j.id).sort()).toEqual(plain.map((j) => j.id).sort());
    expect(readHistory(dir, { states: [], computers: ['nobody'], limit: 50 })).toEqual([]);
  });

  it("counts every job by state for `sluice status` from the kept counts, the journal's jobs winning", () => {
    const plain = new Map<string, number>();
    for (const j of JobStore.snapshot<JobRecord>(dir)) plain.set(j.state, (plain.get(j.state) ?? 0) + 1);
    const committed = JobStore.journalSnapshot<JobRecord>(dir).committed.rows;
    const reader = HistoryIndex.reader(path.join(dir, 'archive'), committed);
    expect(reader, 'the counts come from the index, not from reading the archive').toBeDefined();
    reader?.close();
    const { counts, journal } = readStatus(dir);
    expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(plain));
    // Each job once: the 15 brought back as queued are no longer counted in their archived state.
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(N + 20);
    expect(counts.get('queued')).toBe(15);
    expect(counts.get('uploading')).toBe(20);
    expect(journal.filter((j) => j.state === 'uploading')).toHaveLength(20);
  });

  it('catches up after a crash between the archive commit and its update, and is rebuilt when damaged', async () => {
    const archiveDir = path.join(dir, 'archive');
    const files = HistoryIndex.files.map((f) => path.join(archiveDir, f));
    const equal = async (): Promise<number> => {
      const f: HistoryFilter = { search: 'interview', pageSize: 5000, includeExternal: false };
      const a = await historyOf(store).query(f);
      expect(keys(a.items)).toEqual(keys((await historyOf(withoutIndex(store)).query(f)).items));
      return a.total;
    };
    const before = await equal();
    store.close();
    const saved = files.map((f) => (existsSync(f) ? readFileSync(f) : undefined));
    const later = T0 + 800 * DAY;
    store = JobStore.open<JobRecord>(dir, { fsync: 'never', archive: JOB_ARCHIVE, now: () => later });
    for (let n = N + 100; n < N + 400; n++) store.put(job(n));
    store.compact();
    store.close();
    // The index as it was before that compaction: the archive's commit happened, its update did not.
    files.forEach((f, i) => (saved[i] ? writeFileSync(f, saved[i]) : rmSync(f, { force: true })));
    store = JobStore.open<JobRecord>(dir, { fsync: 'never', archive: JOB_ARCHIVE, now: () => later });
    expect(store.archived?.history?.covered).toBe(store.archived?.lengths.rows);
    const after = await equal();
    expect(after).toBeGreaterThan(before);
    store.close();
    // A damaged file is derived data: removed and built again from the rows.
    for (const f of files) rmSync(f, { force: true });
    writeFileSync(files[0]!, 'not a database, not at all, and long enough to be read as a header');
    store = JobStore.open<JobRecord>(dir, { fsync: 'never', archive: JOB_ARCHIVE, now: () => later });
    expect(store.archived?.history).toBeDefined();
    expect(await equal()).toBe(after);
  }, 60_000);
});
