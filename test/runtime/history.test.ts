// History's query over a real journal and archive: every job once (the journal wins over the
// archive), streams started elsewhere merged unless one of ours ran them, filters, order and pages.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOB_ARCHIVE } from '../../main/adapters/store/archive/job-archive-spec.js';
import { JobStore } from '../../main/adapters/store/journal/job-store.js';
import { createJob, type JobRecord, type JobState } from '../../main/engine/job.js';
import { ExternalStreams, History, type HistoryItem } from '../../main/runtime/history.js';
import type { StreamDto, StreamState } from '../../main/service/types.js';

const T0 = Date.UTC(2026, 10, 1);
let dir: string;
let store: JobStore<JobRecord>;

function job(n: number, state: JobState, extra: Partial<JobRecord> = {}): JobRecord {
  const base = createJob(
    {
      id: `job-${n}`,
      source: { path: `/media/take-${n}.wav`, size: 1000 * n, mtimeMs: T0 },
      origin: { kind: 'manual' },
      seq: n,
      templateId: 'transcribe',
      params: {},
    },
    T0 + n * 1000,
  );
  return { ...base, state, ...(state === 'completed' ? { completedAt: T0 + n * 1000 + 500 } : {}), ...extra };
}

function stream(id: string, state: StreamState, at: number): StreamDto {
  return {
    streamId: id,
    name: `${id}.mp4`,
    groupId: 'g',
    configuration: { streamConfigurationTemplateId: 'transcribe' } as StreamDto['configuration'],
    createdTimestamp: new Date(at).toISOString(),
    creatorId: 'c',
    groupCreatorId: 'c',
    state,
    stateDescription: null,
    finalizedTimestamp: null,
  };
}

/** `hits`: the job ids whose transcript holds each query's words. */
function history(streams: StreamDto[], hits: Record<string, string[]> = {}): { history: History; reads: () => number } {
  let reads = 0;
  const external = new ExternalStreams(async function* (o) {
    reads++;
    for (const s of streams) if (!o.states || o.states.includes(s.state)) yield s;
  });
  const searchTranscripts = async (query: string) => ({
    has: (id: string) => hits[query]?.includes(id) === true,
    ids: () => hits[query] ?? [],
    match: async () => undefined,
  });
  return { history: new History({ store, external, searchTranscripts }), reads: () => reads };
}

const keys = (items: HistoryItem[]): string[] =>
  items.map((i) => (i.origin === 'local' ? i.job.id : `stream:${i.stream.streamId}`));

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sluice-history-'));
  store = JobStore.open<JobRecord>(dir, { fsync: 'never', archive: JOB_ARCHIVE });
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('History', () => {
  it('lists the journal and the archive once each, newest first, with streams started elsewhere', async () => {
    store.put(job(1, 'completed', { dismissed: true, streamId: 's-1' }));
    store.put(job(2, 'failed', { dismissed: true }));
    store.compact();
    expect(store.isHot('job-1')).toBe(false);
    store.put(job(3, 'queued'));
    const { history: h } = history([stream('s-1', 'COMPLETED', T0), stream('s-9', 'READY', T0 + 9000)]);
    const page = await h.query({});
    // s-1 ran job-1: it is not listed twice.
    expect(keys(page.items)).toEqual(['stream:s-9', 'job-3', 'job-2', 'job-1']);
    expect(page.total).toBe(4);
    expect(page.external).toMatchObject({ included: true, count: 1 });
    const s9 = page.items[0];
    expect(s9?.origin === 'external' && s9.state).toBe('processing');
  });

  it('an archived job brought back into the journal is read from the journal', async () => {
    store.put(job(1, 'completed', { dismissed: true }));
    store.compact();
    store.put({ ...job(1, 'completed'), dismissed: false, templateId: 'other' });
    const page = await new History({
      store,
      external: new ExternalStreams(async function* () {}),
      searchTranscripts: async () => undefined,
    }).query({ includeExternal: false });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]?.origin === 'local' && page.items[0].job.templateId).toBe('other');
  });

  it('filters by state, name and folder, sorts, pages, and matches transcripts by words', async () => {
    for (let n = 1; n <= 5; n++) store.put(job(n, n % 2 ? 'completed' : 'failed'));
    const { history: h, reads } = history([stream('s-x', 'FAILED', T0)], { hello: ['job-4'] });
    expect(keys((await h.query({ states: ['completed'], includeExternal: false })).items)).toEqual([
      'job-5',
      'job-3',
      'job-1',
    ]);
    expect(keys((await h.query({ states: ['failed'] })).items)).toEqual(['job-4', 'job-2', 'stream:s-x']);
    expect(keys((await h.query({ folderIds: ['manual'] })).items)).toHaveLength(5);
    expect(reads()).toBe(1); // folders exclude streams started elsewhere; the list is cached
    const bySize = await h.query({ sort: { by: 'size', dir: 'asc' }, page: 1, pageSize: 2, includeExternal: false });
    expect(keys(bySize.items)).toEqual(['job-3', 'job-4']);
    expect(bySize.total).toBe(5);
    // "take-4" by its transcript's words, "take-1" by its name.
    expect(keys((await h.query({ search: 'take-1', includeExternal: false })).items)).toEqual(['job-1']);
    expect(keys((await h.query({ search: 'hello', includeExternal: false })).items)).toEqual(['job-4']);
  });
});
