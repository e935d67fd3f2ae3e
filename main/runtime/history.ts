// History's query. The History screen can hold 100,000 jobs, so searching, filtering, sorting and
// paging happen here and one page crosses the bridge. Finished jobs are mostly in the archive: its
// short summary rows are scanned per query and only the page's records are read. Streams started
// elsewhere (another machine, the API) come from the service's stream list, cached briefly.
// Returns records and streams; the views are the transport's (ipc/handle-history.ts).
import type { StreamDto, StreamState } from '../service/types.js';
import type { JobRecord, JobState } from '../engine/job.js';
import { jobSummaries, type JobSummary } from '../adapters/store/jobs.js';
import type { JobStore } from '../adapters/store/job-store.js';
import type { TranscriptHits, TranscriptMatch } from '../adapters/store/transcript-index.js';

export const STREAM_TO_JOB: Record<StreamState, JobState> = {
  READY: 'processing',
  COMPLETED: 'completed',
  FAILED: 'failed',
  EXPIRED: 'expired',
};

export type HistorySortKey = 'created' | 'completed' | 'name' | 'state' | 'size';

/** What History asks for (the contract's HistoryQuery has this shape). */
export interface HistoryFilter {
  search?: string;
  states?: JobState[];
  templateIds?: string[];
  folderIds?: string[];
  from?: number;
  to?: number;
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

interface Row {
  /** Found by the words of its transcript (not by its name). */
  inTranscript?: boolean;
  jobId?: string;
  created: number;
  completed: number;
  name: string;
  templateId: string;
  state: string;
  size: number;
  item(): HistoryItem;
}

/** A job of ours: the summary decides the filters and the order, the record is read for the page only. */
function localRow(j: JobSummary): Row {
  return {
    created: j.createdAt,
    completed: j.completedAt,
    name: j.fileName.toLowerCase(),
    templateId: j.templateId,
    state: j.state,
    size: j.totalBytes,
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
    created: Date.parse(s.createdTimestamp) || 0,
    completed: s.finalizedTimestamp ? Date.parse(s.finalizedTimestamp) || 0 : 0,
    name: s.name.toLowerCase(),
    templateId: s.configuration.streamConfigurationTemplateId,
    state,
    size: 0,
    item: () => ({ origin: 'external', stream: s, state }),
  };
}

function matches(q: HistoryFilter, r: Row): boolean {
  if (q.search && !r.name.includes(q.search.toLowerCase())) return false;
  if (q.states?.length && !q.states.includes(r.state as JobState)) return false;
  if (q.templateIds?.length && !q.templateIds.includes(r.templateId)) return false;
  if (q.from !== undefined && r.created < q.from) return false;
  if (q.to !== undefined && r.created > q.to) return false;
  return true;
}

export interface HistoryDeps {
  store: JobStore<JobRecord>;
  external: ExternalStreams;
  /** Jobs whose transcript holds every word of the query; undefined: no words. */
  searchTranscripts: (query: string) => Promise<TranscriptHits | undefined>;
}

export class History {
  constructor(private readonly d: HistoryDeps) {}

  /** Forgets the cached stream list (a stream was canceled). */
  invalidate(): void {
    this.d.external.invalidate();
  }

  async query(q: HistoryFilter): Promise<HistoryResult> {
    const rows: Row[] = [];
    const known = new Set<string>();
    const hits = q.search ? await this.d.searchTranscripts(q.search) : undefined;
    const { search: _search, ...unsearched } = q;
    for (const job of jobSummaries(this.d.store)) {
      for (const sid of job.streamIds) known.add(sid);
      if (q.folderIds?.length && !q.folderIds.includes(job.folder)) continue;
      const row = localRow(job);
      if (matches(q, row)) rows.push(row);
      else if (hits?.has(job.id) && matches(unsearched, row)) rows.push({ ...row, inTranscript: true, jobId: job.id });
    }
    const wanted = (q.states ?? []).flatMap((s) =>
      (Object.keys(STREAM_TO_JOB) as StreamState[]).filter((k) => STREAM_TO_JOB[k] === s),
    );
    const tryExternal = q.includeExternal !== false && !q.folderIds?.length && (!q.states?.length || wanted.length > 0);
    const ext: HistoryResult['external'] = { included: false };
    if (tryExternal) {
      const got = await this.d.external.list(wanted, q.refresh === true);
      let count = 0;
      for (const s of got.streams) {
        if (known.has(s.streamId)) continue;
        const row = externalRow(s);
        if (matches(q, row)) {
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
    const by = q.sort?.by ?? 'created';
    const sign = (q.sort?.dir ?? 'desc') === 'asc' ? 1 : -1;
    rows.sort((a, b) => {
      const x = a[by];
      const y = b[by];
      return (x < y ? -1 : x > y ? 1 : b.created - a.created) * sign;
    });
    const page = q.page ?? 0;
    const pageSize = q.pageSize ?? 100;
    const items = await Promise.all(
      rows.slice(page * pageSize, (page + 1) * pageSize).map(async (r): Promise<HistoryItem> => {
        const item = r.item();
        const match = r.inTranscript && r.jobId ? await hits?.match(r.jobId) : undefined;
        return match && item.origin === 'local' ? { ...item, match } : item;
      }),
    );
    return { items, total: rows.length, page, pageSize, external: ext };
  }
}
