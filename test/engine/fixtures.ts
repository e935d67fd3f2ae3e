// Builders for reducer tables: one job per state, streams, failures, a pinned context, and the
// table runner itself.
import { expect, it } from 'vitest';
import {
  createJob,
  type Effect,
  type Failure,
  type JobEvent,
  type JobRecord,
  type StreamSnapshot,
} from '../../main/engine/job.js';
import { DEFAULT_CONTEXT, next, type EngineContext } from '../../main/engine/reducer.js';

export const T0 = Date.parse('2026-01-01T00:00:00Z');
export const S1 = '11111111-1111-4111-8111-111111111111';
export const S2 = '22222222-2222-4222-8222-222222222222';

/** random() = 0.5: full jitter then gives exactly half the ceiling. */
export const ctx: EngineContext = { ...DEFAULT_CONTEXT, random: () => 0.5 };

export const base = (): JobRecord =>
  createJob(
    {
      id: 'job-1',
      source: { path: '/media/a.mp3', size: 1000, mtimeMs: 5 },
      origin: { kind: 'watch', folderId: 'f1' },
      seq: 1,
      templateId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      params: { language: 'en', diarization: true },
      mediaDurationMs: 60_000,
    },
    T0 - 60_000,
  );

const at = (patch: Partial<JobRecord>): JobRecord => ({ ...base(), ...patch });

export const jobs = {
  queued: () => at({}),
  queuedWithId: () => at({ streamId: S1 }),
  queuedVerify: () => at({ streamId: S1, verifyStream: true }),
  uploading: () => at({ state: 'uploading', streamId: S1, startedAt: T0 - 1000, attempts: { upload: 1, export: 0 } }),
  verifying: () => at({ state: 'uploading', streamId: S1, verifyStream: true, startedAt: T0 - 1000 }),
  processing: () =>
    at({
      state: 'processing',
      streamId: S1,
      uploadConfirmed: true,
      uploadedAt: T0 - 500,
      uploadedBytes: 1000,
      stuckAt: T0 + 3_600_000,
      pollIntervalMs: 1000,
      stream: { state: 'READY', stateDescription: null },
    }),
  awaitingComponents: () =>
    at({
      state: 'processing',
      streamId: S1,
      uploadConfirmed: true,
      finalizedAt: T0 - 100,
      stream: { state: 'FAILED', stateDescription: null },
    }),
  exporting: () =>
    at({
      state: 'exporting',
      streamId: S1,
      uploadConfirmed: true,
      finalizedAt: T0 - 1000,
      stream: { state: 'COMPLETED', stateDescription: null },
    }),
  writing: () =>
    at({
      state: 'exporting',
      streamId: S1,
      uploadConfirmed: true,
      finalizedAt: T0 - 1000,
      stagedResultPath: '/state/exports/job-1.json',
      stream: { state: 'COMPLETED', stateDescription: null },
    }),
  completed: () =>
    at({
      state: 'completed',
      streamId: S1,
      uploadConfirmed: true,
      completedAt: T0 - 10,
      results: [{ format: 'json', path: '/media/a.json', writtenBySluice: true }],
    }),
  completedWarn: () =>
    at({
      state: 'completed',
      streamId: S1,
      uploadConfirmed: true,
      completedAt: T0 - 10,
      stagedResultPath: '/state/exports/job-1.json',
      resultWarning: 'could not write',
    }),
  failed: () => at({ state: 'failed', streamId: S1, error: { class: 'request', message: 'bad' } }),
  canceled: () => at({ state: 'canceled', streamId: S1, canceledByUser: true }),
  expired: () => at({ state: 'expired', streamId: S1, uploadConfirmed: true }),
} satisfies Record<string, () => JobRecord>;

export type Fixture = keyof typeof jobs;

export const stream = (state: StreamSnapshot['state'], patch: Partial<StreamSnapshot> = {}): StreamSnapshot => ({
  streamId: S1,
  state,
  stateDescription: null,
  finalizedTimestamp: state === 'READY' ? null : new Date(T0 - 100).toISOString(),
  ...patch,
});

export const failures = {
  network: { class: 'transient', kind: 'network', message: 'socket hang up' },
  timeout: { class: 'transient', kind: 'timeout', message: 'timed out' },
  proxy502: { class: 'transient', kind: 'http', statusCode: 502, message: 'Bad Gateway' },
  server500: {
    class: 'transient',
    kind: 'http',
    statusCode: 500,
    internalErrorName: 'GENERAL_INTERNAL_ERROR',
    message: 'boom',
  },
  capacity503: {
    class: 'transient',
    kind: 'http',
    statusCode: 503,
    internalErrorName: 'PROCESSOR_FAILED_RESERVATION_ERROR',
    message: 'no capacity',
    retryAfterMs: 7000,
  },
  usage429: {
    class: 'transient',
    kind: 'http',
    statusCode: 429,
    internalErrorName: 'STREAM_USAGE_LIMIT_REACHED',
    message: 'Maximum number of concurrent streams reached',
    retryAfterMs: 20_000,
  },
  /** A request rate limit (a gateway's body, no internalErrorName): not the account's limit. */
  rateLimit429: {
    class: 'transient',
    kind: 'http',
    statusCode: 429,
    message: 'Too many requests',
    retryAfterMs: 2000,
  },
  auth401: {
    class: 'credentials',
    kind: 'http',
    statusCode: 401,
    internalErrorName: 'GENERAL_AUTHENTICATION_ERROR',
    message: 'bad key',
  },
  badPatch400: {
    class: 'request',
    kind: 'http',
    statusCode: 400,
    internalErrorName: 'STREAM_CONFIGURATION_BAD_PATCH',
    message: 'Forbidden patch: /langs',
  },
  template404: {
    class: 'not-found',
    kind: 'http',
    statusCode: 404,
    internalErrorName: 'GENERAL_NOT_FOUND_ERROR',
    message: 'no such template',
  },
  conflict409: {
    class: 'state',
    kind: 'http',
    statusCode: 409,
    internalErrorName: 'GENERAL_CONFLICT_ERROR',
    message: 'conflict',
  },
  aborted: { class: 'aborted', kind: 'aborted', message: 'aborted' },
} satisfies Record<string, Failure>;

/** One reducer table row: `next(job, event, now ?? T0)` gives this state, exactly these effects, these fields. */
export interface Row {
  name: string;
  job: JobRecord;
  event: JobEvent;
  now?: number;
  state: JobRecord['state'];
  effects: Effect[];
  fields?: Partial<JobRecord>;
  absent?: Array<keyof JobRecord>;
}

export function runTable(rows: Row[]): void {
  it.each(rows)('$name', (row) => {
    const out = next(row.job, row.event, row.now ?? T0, ctx);
    expect(out.job.state).toBe(row.state);
    expect(out.effects).toEqual(row.effects);
    if (row.fields) expect(out.job).toMatchObject(row.fields);
    for (const k of row.absent ?? []) expect(out.job[k]).toBeUndefined();
  });
}
