// history:* handlers. The History screen can hold 100,000 jobs, so searching, filtering, sorting
// and paging happen here and one page crosses the bridge. Finished jobs are mostly in the archive:
// its short summary rows are scanned per query and only the page's records are read. Streams started elsewhere (another
// machine, the API) come from the service's stream list, cached briefly, marked `external`.
import { isLinkJob } from '../engine/media-link.js';
import path from 'node:path';
import type { Channel, HistoryEntry, HistoryQuery, JobState } from '../../preload/contract.js';
import type { StreamDto, StreamState } from '../service/types.js';
import { canCancel, canReexport, canRerun } from '../engine/eligibility.js';
import type { JobRecord } from '../engine/job.js';
import { DEFAULT_OUTPUT } from '../engine/settings.js';
import type { JobRow } from '../adapters/store/job-archive-spec.js';
import type { ArchivedRow } from '../adapters/store/job-archive.js';
import type { Runtime } from '../runtime.js';
import { acceptedParams } from '../engine/params.js';
import { catalogueTemplate } from '../service/template-catalogue.js';
import {
  checkTemplate,
  requireEligible,
  requireJob,
  type HandlerContext,
  type RawHandlers,
} from './handler-context.js';
import { componentsView, plainOutcomeView, resultView, templateName } from './views.js';

type HistoryChannels = Extract<Channel, `history:${string}`>;

const STREAM_TO_JOB: Record<StreamState, JobState> = {
  READY: 'processing',
  COMPLETED: 'completed',
  FAILED: 'failed',
  EXPIRED: 'expired',
};

export class ExternalStreams {
  private cache = new Map<string, { at: number; streams: StreamDto[] }>();

  constructor(
    private readonly rt: Runtime,
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
      for await (const s of this.rt.streams({ size: 100, ...(states.length ? { states } : {}) })) {
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
  entry(): HistoryEntry;
}

function localRow(j: JobRecord): Row {
  const name = path.basename(j.source.path);
  return {
    created: j.createdAt,
    completed: j.completedAt ?? 0,
    name: name.toLowerCase(),
    templateId: j.templateId,
    state: j.state,
    size: j.totalBytes,
    entry: () => ({
      key: `job:${j.id}`,
      origin: 'local',
      jobId: j.id,
      ...(j.streamId ? { streamId: j.streamId } : {}),
      fileName: name,
      sourcePath: j.movedTo ?? j.source.path,
      ...(j.origin.kind === 'watch' ? { folderId: j.origin.folderId } : {}),
      template: { id: j.templateId, name: templateName(j.templateId) },
      state: j.state,
      ...(j.stream ? { streamState: j.stream.state } : {}),
      createdAt: j.createdAt,
      ...(j.completedAt ? { completedAt: j.completedAt } : {}),
      totalBytes: j.totalBytes,
      results: j.results.map(resultView),
      ...(j.error ? { error: j.error.message } : {}),
      ...plainOutcomeView(j),
      formats: (j.output ?? DEFAULT_OUTPUT).formats,
      params: j.params,
      canCancelStream: !!j.streamId && canCancel(j),
      canRerun: canRerun(j),
      canReexport: canReexport(j),
    }),
  };
}

/** An archived job: the summary decides the filters and the order, the record is read for the page only. */
function archivedRow(a: JobRow, load: () => JobRecord | undefined): Row {
  return {
    created: a.c,
    completed: a.e,
    name: a.n.toLowerCase(),
    templateId: a.t,
    state: a.s,
    size: a.b,
    entry: () => {
      const j = load();
      if (j) return localRow(j).entry();
      throw new Error('The job history could not be read from the archive.');
    },
  };
}

interface LocalJob {
  id: string;
  folder: string;
  streamIds: readonly string[];
  row: Row;
}

/** Every job of ours: those in the journal, then the archived ones not brought back into it. */
function* localJobs(rt: Runtime): Generator<LocalJob> {
  for (const j of rt.jobs()) {
    yield {
      id: j.id,
      folder: j.origin.kind === 'watch' ? j.origin.folderId : 'manual',
      streamIds: [...(j.streamId ? [j.streamId] : []), ...j.previousStreamIds],
      row: localRow(j),
    };
  }
  const archive = rt.store.archived;
  if (!archive) return;
  for (const a of archive.rows() as Array<ArchivedRow & JobRow>) {
    if (rt.store.isHot(a.i)) continue;
    yield { id: a.i, folder: a.f || 'manual', streamIds: a.k, row: archivedRow(a, () => archive.readAt(a.o)) };
  }
}

function externalRow(s: StreamDto): Row {
  const created = Date.parse(s.createdTimestamp) || 0;
  const state = STREAM_TO_JOB[s.state];
  const templateId = s.configuration.streamConfigurationTemplateId;
  return {
    created,
    completed: s.finalizedTimestamp ? Date.parse(s.finalizedTimestamp) || 0 : 0,
    name: s.name.toLowerCase(),
    templateId,
    state,
    size: 0,
    entry: () => ({
      key: `stream:${s.streamId}`,
      origin: 'external',
      streamId: s.streamId,
      fileName: s.name,
      template: { id: templateId, name: templateName(templateId) },
      state,
      streamState: s.state,
      createdAt: created,
      ...(s.finalizedTimestamp ? { completedAt: Date.parse(s.finalizedTimestamp) } : {}),
      results: [],
      ...(s.stateDescription && s.state === 'FAILED' ? { error: s.stateDescription } : {}),
      canCancelStream: s.state === 'READY',
      canRerun: false,
      canReexport: s.state === 'COMPLETED',
    }),
  };
}

function matches(q: HistoryQuery, r: Row): boolean {
  if (q.search && !r.name.includes(q.search.toLowerCase())) return false;
  if (q.states?.length && !q.states.includes(r.state as JobState)) return false;
  if (q.templateIds?.length && !q.templateIds.includes(r.templateId)) return false;
  if (q.from !== undefined && r.created < q.from) return false;
  if (q.to !== undefined && r.created > q.to) return false;
  return true;
}

export function historyHandlers(ctx: HandlerContext, external: ExternalStreams): RawHandlers<HistoryChannels> {
  const { rt } = ctx;

  return {
    'history:list': async (q) => {
      const rows: Row[] = [];
      const known = new Set<string>();
      const hits = q.search ? await rt.searchTranscripts(q.search) : undefined;
      const { search: _search, ...unsearched } = q;
      for (const { id, folder, streamIds, row } of localJobs(rt)) {
        for (const sid of streamIds) known.add(sid);
        if (q.folderIds?.length && !q.folderIds.includes(folder)) continue;
        if (matches(q, row)) rows.push(row);
        else if (hits?.has(id) && matches(unsearched, row)) rows.push({ ...row, inTranscript: true, jobId: id });
      }
      const wanted = (q.states ?? []).flatMap((s) =>
        (Object.keys(STREAM_TO_JOB) as StreamState[]).filter((k) => STREAM_TO_JOB[k] === s),
      );
      const tryExternal =
        q.includeExternal !== false && !q.folderIds?.length && (!q.states?.length || wanted.length > 0);
      const ext: { included: boolean; fetchedAt?: number; count?: number; problem?: string } = { included: false };
      if (tryExternal) {
        const got = await external.list(wanted, q.refresh === true);
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
      const entries = await Promise.all(
        rows.slice(page * pageSize, (page + 1) * pageSize).map(async (r) => {
          const match = r.inTranscript && r.jobId ? await hits?.match(r.jobId) : undefined;
          return { ...r.entry(), ...(match ? { match } : {}) };
        }),
      );
      return { entries, total: rows.length, page, pageSize, external: ext };
    },

    'history:components': async ({ streamId }) => componentsView(await rt.streamComponents(streamId)),
    'history:cancelStream': async ({ streamId }) => {
      const r = await rt.cancelStream(streamId);
      external.invalidate();
      return r;
    },

    'history:rerun': async ({ jobId, templateId, params, language }) => {
      const j = requireEligible(rt, jobId, 'rerun');
      const tid = templateId ?? j.templateId;
      // Another template keeps every parameter of the job it accepts (one it cannot describe: all).
      const target = catalogueTemplate(rt.templates.current, tid);
      const p = { ...(params ?? (tid === j.templateId || !target ? j.params : acceptedParams(target, j.params))) };
      if (language !== undefined) {
        if (language.length > 0) p.language = language;
        else delete p.language;
      }
      checkTemplate(rt.templates.current, tid, p, '');
      if (isLinkJob(j)) return rt.addLinks([j.source.path], { templateId: tid, params: p, force: true });
      // The job's own formats and naming, not today's defaults; its results are replaced as a set.
      return rt.addPaths([j.movedTo ?? j.source.path], {
        templateId: tid,
        params: p,
        force: true,
        replaces: j.id,
        ...(j.output ? { output: j.output } : {}),
      });
    },

    'history:reexport': async (target) => {
      const local = 'jobId' in target ? requireJob(rt, target.jobId) : rt.jobOfStream(target.streamId);
      if (local) {
        requireEligible(rt, local.id, 'reexport');
        const done = await rt.reexport(local.id, 'formats' in target ? target.formats : undefined);
        return { results: done.results.map(resultView) };
      }
      // A stream started elsewhere has no source file beside which to save: it goes to the state dir.
      const file = await rt.exportExternal('streamId' in target ? target.streamId : '');
      return { results: [{ format: 'json', path: file, fileName: path.basename(file), collided: false }] };
    },
  };
}
