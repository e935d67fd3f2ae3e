// Upload phase tables: dispatch, progress, the 200, failures by class (§8.4), and the
// crash/unknown-outcome re-attach matrix (§15.2).
import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../main/engine/job.js';
import { next } from '../../main/engine/reducer.js';
import { ctx, failures, jobs, runTable, S1, stream, T0 } from './fixtures.js';

const fail = (f: (typeof failures)[keyof typeof failures]): JobEvent => ({ type: 'uploadFailed', error: f });

describe('dispatch', () => {
  runTable([
    {
      name: 'a new job takes the fresh id and the id is in the record before startUpload runs',
      job: jobs.queued(),
      event: { type: 'dispatched', freshStreamId: S1 },
      state: 'uploading',
      effects: [{ type: 'startUpload', streamId: S1 }],
      fields: { streamId: S1, attempts: { upload: 1, export: 0 }, startedAt: T0, uploadedBytes: 0 },
    },
    {
      name: 'an id the service never created is reused',
      job: jobs.queuedWithId(),
      event: { type: 'dispatched', freshStreamId: 'fresh' },
      state: 'uploading',
      effects: [{ type: 'startUpload', streamId: S1 }],
      fields: { streamId: S1 },
    },
    {
      name: 'an id with an unknown outcome is read first',
      job: jobs.queuedVerify(),
      event: { type: 'dispatched', freshStreamId: 'fresh' },
      state: 'uploading',
      effects: [{ type: 'checkStream', streamId: S1 }],
      fields: { streamId: S1, verifyStream: true },
    },
  ]);
});

describe('progress and the 200', () => {
  runTable([
    {
      name: 'progress is clamped to the total',
      job: jobs.uploading(),
      event: { type: 'uploadProgress', uploadedBytes: 5000 },
      state: 'uploading',
      effects: [],
      fields: { uploadedBytes: 1000 },
    },
    {
      name: '200 with READY: confirmed, processing, first poll after 1 s, stuck deadline = 2 × duration + 30 min',
      job: jobs.uploading(),
      event: { type: 'uploadSucceeded', stream: stream('READY') },
      state: 'processing',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 + 1000 }],
      fields: {
        uploadConfirmed: true,
        uploadedAt: T0,
        uploadedBytes: 1000,
        pollIntervalMs: 1000,
        stuckAt: T0 + 120_000 + 1_800_000,
      },
    },
    {
      name: '200 with COMPLETED already (tiny file): export at once',
      job: jobs.uploading(),
      event: { type: 'uploadSucceeded', stream: stream('COMPLETED') },
      state: 'exporting',
      effects: [{ type: 'exportNow', streamId: S1 }],
      fields: { uploadConfirmed: true, finalizedAt: T0 - 100 },
    },
  ]);
});

describe('upload failures by class', () => {
  runTable([
    {
      name: 'network: queued, backoff, outcome unknown → verify; never failed',
      job: jobs.uploading(),
      event: fail(failures.network),
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 500 }],
      fields: { verifyStream: true, nextAttemptAt: T0 + 500, failures: 1, streamId: S1 },
    },
    {
      name: 'timeout: same as network',
      job: jobs.uploading(),
      event: fail(failures.timeout),
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 500 }],
      fields: { verifyStream: true },
    },
    {
      name: 'proxy 502 without ErrorResponse: may have created the stream → verify',
      job: jobs.uploading(),
      event: fail(failures.proxy502),
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 500 }],
      fields: { verifyStream: true },
    },
    {
      name: '503 refusal with Retry-After: Retry-After wins, same id reused, no verify',
      job: jobs.uploading(),
      event: fail(failures.capacity503),
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 7000 }],
      fields: { verifyStream: false, nextAttemptAt: T0 + 7000, streamId: S1 },
    },
    {
      name: '429 usage limit: job waits and the queue pauses until Retry-After',
      job: jobs.uploading(),
      event: fail(failures.usage429),
      state: 'queued',
      effects: [
        { type: 'pauseQueue', reason: 'usage-limit', message: failures.usage429.message, until: T0 + 20_000 },
        { type: 'scheduleRetry', at: T0 + 20_000 },
      ],
      fields: { nextAttemptAt: T0 + 20_000, verifyStream: false },
    },
    {
      name: '429 rate limit: only this upload backs off (Retry-After); the queue is not paused',
      job: jobs.uploading(),
      event: fail(failures.rateLimit429),
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 2000 }],
      fields: { nextAttemptAt: T0 + 2000, failures: 1 },
    },
    {
      // A lookup before each retry cost a request: refusing every second request refused every upload.
      name: '429 rate limit: the stream was refused, not half-made; the retry uploads without a lookup',
      job: jobs.uploading(),
      event: fail(failures.rateLimit429),
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 2000 }],
      fields: { verifyStream: false },
    },
    {
      // Its Retry-After (2 s) is shorter than the backoff after 50 failures: the wait keeps growing.
      name: '429 rate limit never uses up the retries',
      job: { ...jobs.uploading(), failures: 50 },
      event: fail(failures.rateLimit429),
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 150_000 }],
    },
    {
      name: '401: queue paused, job stays queued (not failed)',
      job: jobs.uploading(),
      event: fail(failures.auth401),
      state: 'queued',
      effects: [{ type: 'pauseQueue', reason: 'credentials', message: 'bad key' }],
      fields: {
        error: {
          class: 'credentials',
          message: 'bad key',
          statusCode: 401,
          internalErrorName: 'GENERAL_AUTHENTICATION_ERROR',
        },
      },
      absent: ['nextAttemptAt'],
    },
    {
      name: '400 bad patch: failed with the message, no retry',
      job: jobs.uploading(),
      event: fail(failures.badPatch400),
      state: 'failed',
      effects: [],
      fields: {
        error: {
          class: 'request',
          message: 'Forbidden patch: /langs',
          statusCode: 400,
          internalErrorName: 'STREAM_CONFIGURATION_BAD_PATCH',
        },
      },
    },
    {
      name: '404 template: failed',
      job: jobs.uploading(),
      event: fail(failures.template404),
      state: 'failed',
      effects: [],
      fields: {
        error: {
          class: 'not-found',
          message: 'no such template',
          statusCode: 404,
          internalErrorName: 'GENERAL_NOT_FOUND_ERROR',
        },
      },
    },
    {
      name: '409 id taken: read the stream before acting',
      job: jobs.uploading(),
      event: fail(failures.conflict409),
      state: 'uploading',
      effects: [{ type: 'checkStream', streamId: S1 }],
      fields: { verifyStream: true },
    },
    {
      name: 'aborted (not by the user): back to the queue, verify',
      job: jobs.uploading(),
      event: fail(failures.aborted),
      state: 'queued',
      effects: [],
      fields: { verifyStream: true },
    },
    {
      name: 'answered 5xx fails after maxHttpTransientFailures',
      job: { ...jobs.uploading(), failures: ctx.maxHttpTransientFailures - 1 },
      event: fail(failures.server500),
      state: 'failed',
      effects: [],
    },
    {
      name: 'network never fails, however many failures',
      job: { ...jobs.uploading(), failures: 1000 },
      event: fail(failures.network),
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + ctx.backoff.capMs / 2 }],
    },
  ]);
});

// §15.2 crash matrix. The starting point is what a restart leaves behind: resume turns an
// 'uploading' job into a queued one to verify, dispatch reads the stream, the answer decides.
describe('crash re-attach matrix', () => {
  it('resume of an interrupted upload: queued, verify the id, no bytes counted', () => {
    const out = next({ ...jobs.uploading(), uploadedBytes: 600 }, { type: 'resume' }, T0, ctx);
    expect(out.job).toMatchObject({ state: 'queued', verifyStream: true, uploadedBytes: 0, streamId: S1 });
    expect(out.effects).toEqual([]);
  });

  it('resume of a job dispatched but without id: nothing to verify', () => {
    const { streamId: _drop, ...noId } = jobs.uploading();
    const out = next(noId, { type: 'resume' }, T0, ctx);
    expect(out.job).toMatchObject({ state: 'queued', verifyStream: false });
  });

  runTable([
    {
      name: '404 → upload again with the same id',
      job: jobs.verifying(),
      event: { type: 'reattachResult', found: false },
      state: 'uploading',
      effects: [{ type: 'startUpload', streamId: S1 }],
      fields: { streamId: S1, verifyStream: false, attempts: { upload: 1, export: 0 } },
    },
    {
      name: '404 after a rate limit → upload again, the count of refusals kept so the backoff goes on growing',
      job: {
        ...jobs.verifying(),
        failures: 4,
        error: { class: 'transient', message: 'Too many requests', statusCode: 429 },
      },
      event: { type: 'reattachResult', found: false },
      state: 'uploading',
      effects: [{ type: 'startUpload', streamId: S1 }],
      fields: { failures: 4 },
    },
    {
      name: 'known + uploadConfirmed → resume tracking',
      job: { ...jobs.verifying(), uploadConfirmed: true, uploadedAt: T0 - 10 },
      event: { type: 'reattachResult', found: true, stream: stream('READY') },
      state: 'processing',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 + 1000 }],
      fields: { uploadedAt: T0 - 10, verifyStream: false },
    },
    {
      name: 'known + uploadConfirmed + COMPLETED → export',
      job: { ...jobs.verifying(), uploadConfirmed: true },
      event: { type: 'reattachResult', found: true, stream: stream('COMPLETED') },
      state: 'exporting',
      effects: [{ type: 'exportNow', streamId: S1 }],
    },
    {
      name: 'known, never confirmed, READY → cancel it and wait for the answer: no new upload while it may still complete',
      job: jobs.verifying(),
      event: { type: 'reattachResult', found: true, stream: stream('READY') },
      state: 'uploading',
      effects: [{ type: 'cancelStream', streamId: S1 }],
      fields: { streamId: S1, verifyStream: true, previousStreamIds: [] },
    },
    {
      name: 'known, never confirmed, already FAILED → no cancel needed, new id next',
      job: jobs.verifying(),
      event: { type: 'reattachResult', found: true, stream: stream('FAILED') },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 }],
      fields: { previousStreamIds: [S1] },
      absent: ['streamId'],
    },
    {
      name: 'known, never confirmed, COMPLETED → adopted: its export becomes the result, no second upload',
      job: jobs.verifying(),
      event: { type: 'reattachResult', found: true, stream: stream('COMPLETED') },
      state: 'exporting',
      effects: [{ type: 'exportNow', streamId: S1 }],
      fields: { streamId: S1, uploadConfirmed: true, previousStreamIds: [] },
    },
    {
      name: 'known, never confirmed, COMPLETED but the service counted fewer bytes → not adopted, new id next',
      job: jobs.verifying(),
      event: {
        type: 'reattachResult',
        found: true,
        stream: stream('COMPLETED'),
        ingressBytes: jobs.verifying().totalBytes - 1,
      },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 }],
      fields: { previousStreamIds: [S1] },
    },
    {
      name: 'known, 200 lost, but the service received every byte (usage ingress = size) → adopt it, no second upload',
      job: jobs.verifying(),
      event: {
        type: 'reattachResult',
        found: true,
        stream: stream('READY'),
        ingressBytes: jobs.verifying().totalBytes,
      },
      state: 'processing',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 + 1000 }],
      fields: { streamId: S1, uploadConfirmed: true, previousStreamIds: [] },
    },
    {
      name: 'known, 200 lost, service received fewer bytes so far → cancel it and wait',
      job: jobs.verifying(),
      event: {
        type: 'reattachResult',
        found: true,
        stream: stream('READY'),
        ingressBytes: jobs.verifying().totalBytes - 1,
      },
      state: 'uploading',
      effects: [{ type: 'cancelStream', streamId: S1 }],
      fields: { streamId: S1, previousStreamIds: [] },
    },
    {
      name: 'known, every byte received but FAILED → not adopted, new id next',
      job: jobs.verifying(),
      event: {
        type: 'reattachResult',
        found: true,
        stream: stream('FAILED'),
        ingressBytes: jobs.verifying().totalBytes,
      },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 }],
      fields: { previousStreamIds: [S1] },
    },
    {
      name: 'cancel answered, stream FAILED → it can no longer complete: new id next',
      job: jobs.verifying(),
      event: { type: 'cancelAnswered', stream: stream('FAILED') },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 }],
      fields: { previousStreamIds: [S1], verifyStream: false },
      absent: ['streamId'],
    },
    {
      name: 'cancel answered but still READY → look again after a backoff, no upload meanwhile',
      job: jobs.verifying(),
      event: { type: 'cancelAnswered', stream: stream('READY') },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 500 }],
      fields: { streamId: S1, verifyStream: true, previousStreamIds: [] },
    },
    {
      name: 'cancel refused (503) → retried with backoff after re-reading the stream; the id is kept',
      job: jobs.verifying(),
      event: { type: 'cancelFailed', error: failures.capacity503 },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 7000 }],
      fields: { streamId: S1, verifyStream: true, failures: 1, previousStreamIds: [] },
    },
    {
      name: 'cancel refused for the 50th time → still retried, never failed, never uploaded again',
      job: { ...jobs.verifying(), failures: 49 },
      event: { type: 'cancelFailed', error: failures.server500 },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 150_000 }],
      fields: { streamId: S1, verifyStream: true },
    },
    {
      name: 'cancel unanswered (network) → retried with backoff',
      job: jobs.verifying(),
      event: { type: 'cancelFailed', error: failures.network },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 500 }],
      fields: { streamId: S1, verifyStream: true },
    },
    {
      name: 'cancel 409 (it finished meanwhile) → read it and act on what it became',
      job: jobs.verifying(),
      event: { type: 'cancelFailed', error: failures.conflict409 },
      state: 'uploading',
      effects: [{ type: 'checkStream', streamId: S1 }],
      fields: { streamId: S1, verifyStream: true },
    },
    {
      name: 'cancel 404 → nothing left to bill: new id next',
      job: jobs.verifying(),
      event: { type: 'cancelFailed', error: failures.template404 },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 }],
      fields: { previousStreamIds: [S1] },
      absent: ['streamId'],
    },
    {
      name: 'cancel 401 → queue paused, the stream still to be settled',
      job: jobs.verifying(),
      event: { type: 'cancelFailed', error: failures.auth401 },
      state: 'queued',
      effects: [{ type: 'pauseQueue', reason: 'credentials', message: 'bad key' }],
      fields: { streamId: S1, verifyStream: true },
    },
    {
      name: 'a cancel answer for a job the user canceled is ignored',
      job: jobs.canceled(),
      event: { type: 'cancelFailed', error: failures.capacity503 },
      state: 'canceled',
      effects: [],
    },
    {
      name: 'check failed, network → queued, still to verify, backoff',
      job: jobs.verifying(),
      event: { type: 'reattachFailed', error: failures.network },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 500 }],
      fields: { verifyStream: true, streamId: S1 },
    },
    {
      name: 'check failed, 401 → pause, still to verify',
      job: jobs.verifying(),
      event: { type: 'reattachFailed', error: failures.auth401 },
      state: 'queued',
      effects: [{ type: 'pauseQueue', reason: 'credentials', message: 'bad key' }],
      fields: { verifyStream: true },
    },
    {
      name: 'check failed, 400 → failed',
      job: jobs.verifying(),
      event: { type: 'reattachFailed', error: failures.badPatch400 },
      state: 'failed',
      effects: [],
    },
  ]);

  it('the re-dispatch after an abandoned stream takes the fresh id', () => {
    const canceling = next(
      jobs.verifying(),
      { type: 'reattachResult', found: true, stream: stream('READY') },
      T0,
      ctx,
    ).job;
    const abandoned = next(canceling, { type: 'cancelAnswered', stream: stream('FAILED') }, T0, ctx).job;
    const out = next(abandoned, { type: 'dispatched', freshStreamId: 'new-id' }, T0 + 1, ctx);
    expect(out.job).toMatchObject({ state: 'uploading', streamId: 'new-id', previousStreamIds: [S1] });
    expect(out.effects).toEqual([{ type: 'startUpload', streamId: 'new-id' }]);
  });
});

describe('pause stops an upload in flight', () => {
  it('aborts the transfer, cancels the READY stream and waits on the cancel; no upload meanwhile', () => {
    const out = next({ ...jobs.uploading(), uploadedBytes: 4096 }, { type: 'uploadInterrupted' }, T0, ctx);
    expect(out.job).toMatchObject({ state: 'uploading', streamId: S1, verifyStream: true, uploadedBytes: 0 });
    expect(out.effects).toEqual([
      { type: 'abortUpload', streamId: S1 },
      { type: 'cancelStream', streamId: S1 },
    ]);
    // The aborted request's own failure changes nothing: the cancel's answer decides.
    const aborted = next(out.job, { type: 'uploadFailed', error: failures.aborted }, T0 + 1, ctx);
    expect(aborted.job).toBe(out.job);
    expect(aborted.effects).toEqual([]);
  });

  it('the stream canceled (FAILED): queued again under a new id, the old one never reused', () => {
    const interrupted = next(jobs.uploading(), { type: 'uploadInterrupted' }, T0, ctx).job;
    const canceled = next(interrupted, { type: 'cancelAnswered', stream: stream('FAILED') }, T0 + 1, ctx);
    expect(canceled.job).toMatchObject({ state: 'queued', previousStreamIds: [S1], verifyStream: false });
    expect(canceled.job.streamId).toBeUndefined();
    const again = next(canceled.job, { type: 'dispatched', freshStreamId: 'new-id' }, T0 + 2, ctx);
    expect(again.effects).toEqual([{ type: 'startUpload', streamId: 'new-id' }]);
  });

  it('a stream that completed before the cancel reached it is taken as done, not uploaded again', () => {
    const interrupted = next(jobs.uploading(), { type: 'uploadInterrupted' }, T0, ctx).job;
    const done = next(interrupted, { type: 'cancelAnswered', stream: stream('COMPLETED') }, T0 + 1, ctx);
    expect(done.job.state).not.toBe('queued');
    expect(done.job.streamId).toBe(S1);
  });

  it('a job waiting on its stream (verifying) or past the upload is left alone', () => {
    for (const job of [jobs.verifying(), jobs.processing(), jobs.queued()]) {
      const out = next(job, { type: 'uploadInterrupted' }, T0, ctx);
      expect(out.job).toBe(job);
      expect(out.effects).toEqual([]);
    }
  });
});
