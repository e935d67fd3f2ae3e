// History's query. The History screen can hold 100,000 jobs, so searching, filtering, sorting and
// paging happen here and one page crosses the bridge. Finished jobs are mostly in the archive: its
// SQL index (adapters/store/history/history-index.ts) answers for them with one page of rows, and only the
// page's records are read; the journal's jobs and streams started elsewhere (another machine, the
// API, from the service's stream list, cached briefly) are few and filtered here, then merged in
// order. Without SQLite (Node 20 without better-sqlite3) the archive's summary rows are scanned per
// query instead: the same answers, slower. Returns records and streams; the views are the
// transport's (ipc/handle-history.ts).
import type { StreamDto, StreamState } from '../service/types.js';
import type { JobRecord, JobState } from '../engine/job.js';
import { hotSummaries, jobSummaries, type JobSummary } from '../adapters/store/journal/jobs.js';
import type { HistoryIndex } from '../adapters/store/history/history-index.js';
import type { IndexedJob } from '../adapters/store/history/history-query.js';
import type { JobStore } from '../adapters/store/journal/job-store.js';
import type { TranscriptHits, TranscriptMatch } from '../adapters/store/search/transcript-index.js';
import { computerKey } from '../engine/shared-folder.js';
import { historyMatcher, historyQueryOf, type FilterRow, type HistoryFilterFields } from '../engine/history-filter.js';
import { STREAM_TO_JOB, streamStatesFor } from '../engine/stream-state.js';
import { foldText } from '../engine/transcript/search-text.js';

export type HistorySortKey = 'created' | 'completed' | 'name' | 'state' | 'size' | 'computer';

/** What History asks for (the contract's HistoryQuery has this shape): the filter (engine/history-filter.ts), the order and the page. */
export interface HistoryFilter extends HistoryFilterFields {
  states?: JobState[];
  sort?: { by: HistorySortKey; dir: 'asc' | 'desc' };
  page?: number;
  pageSize?: number;
  includeExternal?: boolean;
  refresh?: boolean;
}

export type HistoryItem =
  | { origin: 'local'; job: JobRecord; match?: TranscriptMatch }
  | { origin: 'external'; stream: StreamDto; state: JobState };

export interface HistoryResult {
  items: HistoryItem[];
  total: number;
  page: number;
  pageSize: number;
  /** Every computer named as having processed a job, whatever the filter: History's list to filter by. */
  computers: string[];
  external: { included: boolean; fetchedAt?: number; count?: number; problem?: string };
}

type ListStreams = (opts: { size: number; states?: StreamState[] }) => AsyncIterable<StreamDto>;

export class ExternalStreams {
  private cache = new Map<string, { at: number; streams: StreamDto[] }>();

  constructor(
    private readonly listStreams: ListStreams,
    private readonly ttlMs = 30_000,
    private readonly max = 5000,
  ) {}

  async list(
    states: StreamState[],
    refresh = false,
  ): Promise<{ streams: StreamDto[]; fetchedAt: number; problem?: string }> {
    const key = [...states].sort().join(',');
    const hit = this.cache.get(key);
    if (!refresh && hit && Date.now() - hit.at < this.ttlMs) return { streams: hit.streams, fetchedAt: hit.at };
    const streams: StreamDto[] = [];
    try {
      for await (const s of this.listStreams({ size: 100, ...(states.length ? { states } : {}) })) {
        streams.push(s);
        if (streams.length >= this.max) break;
      }
    } catch (e) {
      return {
        streams: [],
        fetchedAt: Date.now(),
        problem: `The service's stream list could not be read: ${e instanceof Error ? e.message : String(e)}`,
      };
    }
    const at = Date.now();
    this.cache.set(key, { at, streams });
    return { streams, fetchedAt: at };
  }

  invalidate(): void {
    this.cache.clear();
  }
}

/** A row as the filter sees it (the computer that processed it: the search finds jobs by it too), and more. */
interface Row extends FilterRow {
  /** Found by the words of its transcript (not by its name). */
  inTranscript?: boolean;
  /** The job's id, or the stream's for one started elsewhere: the last word on the order. */
  tie: string;
  completed: number;
  size: number;
  item(): HistoryItem;
}

/** A job of ours: the summary decides the filters and the order, the record is read for the page only. */
function localRow(j: JobSummary): Row {
  return {
    tie: j.id,
    folder: j.folder,
    created: j.createdAt,
    completed: j.completedAt,
    name: j.fileName,
    templateId: j.templateId,
    state: j.state,
    size: j.totalBytes,
    ...(j.processedBy ? { host: j.processedBy } : {}),
    item: () => {
      const job = j.load();
      if (job) return { origin: 'local', job };
      throw new Error('The job history could not be read from the archive.');
    },
  };
}

function externalRow(s: StreamDto): Row {
  const state = STREAM_TO_JOB[s.state];
  return {
    tie: s.streamId,
    created: Date.parse(s.createdTimestamp) || 0,
    completed: s.finalizedTimestamp ? Date.parse(s.finalizedTimestamp) || 0 : 0,
    name: s.name,
    templateId: s.configuration.streamConfigurationTemplateId,
    state,
    size: 0,
    item: () => ({ origin: 'external', stream: s, state }),
  };
}

/** Strings in code point order, as SQLite's BINARY collation compares UTF-8 (not UTF-16 units). */
function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** History's order, the index's own: the key, then when created, then the id; all one way. */
function order(by: HistorySortKey, dir: 'asc' | 'desc', fold: (s: string) => string): (a: Row, b: Row) => number {
  const sign = dir === 'asc' ? 1 : -1;
  return (a, b) => {
    let c = 0;
    if (by === 'name') c = compareText(fold(a.name), fold(b.name));
    else if (by === 'state') c = compareText(a.state, b.state);
    else if (by === 'computer') c = compareText(computerKey(a.host ?? ''), computerKey(b.host ?? ''));
    else c = a[by] - b[by];
    if (c === 0) c = a.created - b.created;
    if (c === 0) c = compareText(a.tie, b.tie);
    return c * sign;
  };
}

export interface HistoryDeps {
  store: JobStore<JobRecord>;
  external: ExternalStreams;
  /** Jobs whose transcript holds every word of the query; undefined: no words. */
  searchTranscripts: (query: string) => Promise<TranscriptHits | undefined>;
}

/** Names folded once rather than on every query (decomposing accented names is the slow part). */
class FoldedNames {
  #names = new Map<string, string>();
  readonly fold = (name: string): string => {
    let folded = this.#names.get(name);
    if (folded === undefined) {
      if (this.#names.size >= 250_000) this.#names.clear();
      folded = foldText(name);
      this.#names.set(name, folded);
    }
    return folded;
  };
}

/** What one query has gathered before the archive is asked: the journal's and the service's rows. */
interface Gathered {
  rows: Row[];
  /** The computers named by the jobs looked at (before filtering). */
  computers: Set<string>;
  hits: TranscriptHits | undefined;
  external: HistoryResult['external'];
}

export class History {
  readonly #folded = new FoldedNames();
  constructor(private readonly d: HistoryDeps) {}

  /** Forgets the cached stream list (a stream was canceled). */
  invalidate(): void {
    this.d.external.invalidate();
  }

  async query(q: HistoryFilter): Promise<HistoryResult> {
    const index = this.d.store.archived?.history;
    return index ? this.indexed(q, index) : this.scanned(q);
  }

  /** The archive answered by its index: one page of it, merged with the journal's and the service's rows. */
  private async indexed(q: HistoryFilter, index: HistoryIndex): Promise<HistoryResult> {
    const archive = this.d.store.archived!;
    const got = await this.gather(q, hotSummaries(this.d.store), (ids) => index.knownStreams(ids));
    const by = q.sort?.by ?? 'created';
    const dir = q.sort?.dir ?? 'desc';
    const cmp = order(by, dir, this.#folded.fold);
    const small = got.rows.sort(cmp);
    const page = q.page ?? 0;
    const pageSize = q.pageSize ?? 100;
    const start = page * pageSize;
    const end = start + pageSize;
    // The archive's rows before `lo` come before this page whatever the small rows are.
    const lo = Math.max(0, start - small.length);
    const answer = index.query({
      ...historyQueryOf(q),
      ...(got.hits ? { hits: got.hits.ids() } : {}),
      exclude: this.d.store.all().map((j) => j.id),
      sort: { by, dir },
      offset: lo,
      limit: end - lo,
    });
    const archived = answer.rows.map((r) => indexedRow(r, () => archive.readAt(r.offset)));
    // How many small rows come before the archive's row at `lo`: that row's place is lo + k.
    let k = 0;
    if (lo > 0) while (k < small.length && (archived.length === 0 || cmp(small[k]!, archived[0]!) < 0)) k++;
    const merged = mergeSorted(archived, small.slice(k), cmp);
    const from = start - (lo + k);
    const items = await this.items(merged.slice(from, from + pageSize), got.hits);
    const computers = sortedNames([...got.computers, ...index.computers()]);
    return { items, total: answer.total + small.length, page, pageSize, computers, external: got.external };
  }

  /** Every row read and filtered here: where there is no index (no SQLite in this Node). */
  private async scanned(q: HistoryFilter): Promise<HistoryResult> {
    const got = await this.gather(q, jobSummaries(this.d.store));
    const rows = got.rows.sort(order(q.sort?.by ?? 'created', q.sort?.dir ?? 'desc', this.#folded.fold));
    const page = q.page ?? 0;
    const pageSize = q.pageSize ?? 100;
    const items = await this.items(rows.slice(page * pageSize, (page + 1) * pageSize), got.hits);
    return {
      items,
      total: rows.length,
      page,
      pageSize,
      computers: sortedNames(got.computers),
      external: got.external,
    };
  }

  /** The jobs given and the service's streams that pass the filter, unsorted. */
  private async gather(
    q: HistoryFilter,
    jobs: Iterable<JobSummary>,
    knownElsewhere: (ids: string[]) => Set<string> = () => new Set(),
  ): Promise<Gathered> {
    const rows: Row[] = [];
    const known = new Set<string>();
    const computers = new Set<string>();
    const hits = q.search ? await this.d.searchTranscripts(q.search) : undefined;
    const matches = historyMatcher(q, this.#folded.fold);
    for (const job of jobs) {
      for (const sid of job.streamIds) known.add(sid);
      if (job.processedBy) computers.add(job.processedBy);
      const row = localRow(job);
      if (matches(row)) rows.push(row);
      else if (hits?.has(job.id) && matches(row, { byName: false })) rows.push({ ...row, inTranscript: true });
    }
    const wanted = streamStatesFor(q.states ?? []);
    // The service's streams belong to no watch folder and name no computer: a filter on either leaves them out.
    const tryExternal =
      q.includeExternal !== false &&
      !q.folderIds?.length &&
      !q.computers?.length &&
      (!q.states?.length || wanted.length > 0);
    const ext: HistoryResult['external'] = { included: false };
    if (tryExternal) {
      const got = await this.d.external.list(wanted, q.refresh === true);
      const archived = knownElsewhere(got.streams.map((s) => s.streamId).filter((id) => !known.has(id)));
      let count = 0;
      for (const s of got.streams) {
        if (known.has(s.streamId) || archived.has(s.streamId)) continue;
        const row = externalRow(s);
        if (matches(row)) {
          rows.push(row);
          count++;
        }
      }
      Object.assign(ext, {
        included: !got.problem,
        fetchedAt: got.fetchedAt,
        count,
        ...(got.problem ? { problem: got.problem } : {}),
      });
    }
    return { rows, computers, hits, external: ext };
  }

  /** The page's records (read from the archive for archived jobs) with their transcript lines. */
  private items(rows: Row[], hits: TranscriptHits | undefined): Promise<HistoryItem[]> {
    return Promise.all(
      rows.map(async (r): Promise<HistoryItem> => {
        const item = r.item();
        const match = r.inTranscript ? await hits?.match(r.tie) : undefined;
        return match && item.origin === 'local' ? { ...item, match } : item;
      }),
    );
  }
}

function indexedRow(r: IndexedJob, load: () => JobRecord | undefined): Row {
  return {
    tie: r.id,
    created: r.created,
    completed: r.completed,
    name: r.name,
    templateId: r.template,
    state: r.state,
    size: r.size,
    ...(r.host ? { host: r.host } : {}),
    ...(r.inTranscript ? { inTranscript: true } : {}),
    item: () => {
      const job = load();
      if (job) return { origin: 'local', job };
      throw new Error('The job history could not be read from the archive.');
    },
  };
}

/** Distinct names in code point order. */
const sortedNames = (names: Iterable<string>): string[] => [...new Set(names)].sort(compareText);

/** Two lists each in `cmp` order as one. */
function mergeSorted(a: Row[], b: Row[], cmp: (x: Row, y: Row) => number): Row[] {
  const out: Row[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(cmp(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
