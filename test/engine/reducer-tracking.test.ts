// Tracking, export, result writing, and the user/lifecycle events (cancel, retry, rewrite, expiry,
// network down, resume).
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../main/engine/job.js';
import { next } from '../../main/engine/reducer.js';
import { ctx, failures, jobs, runTable, S1, stream, T0 } from './fixtures.js';

const SAFE = ctx.safeExportMs;
const failedComponents = {
  gateway: { state: 'CLOSED' as const },
  processors: [
    { processorId: 'transcriber', state: 'ERROR' as const, stateDescription: 'External close signal received' },
    {
      processorId: 'diarization',
      state: 'ERROR' as const,
      stateDescription: '[InternalErrorName.PROCESSOR_TRANSCODING_ERROR] JobFailedException: Invalid data found',
    },
    { processorId: 'llm', state: 'COMPLETED' as const, stateDescription: 'Stream has no prompt enabled' },
  ],
};

describe('polling', () => {
  runTable([
    {
      name: 'READY in the first 10 s after the upload: polled again in 1 s',
      job: jobs.processing(),
      event: { type: 'streamPolled', stream: stream('READY') },
      state: 'processing',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 + 1000 }],
      fields: { pollIntervalMs: 1000, stuck: false },
    },
    {
      name: 'READY after that: interval grows ×1.5 up to the cap',
      job: { ...jobs.processing(), uploadedAt: T0 - 10_000 },
      event: { type: 'streamPolled', stream: stream('READY') },
      state: 'processing',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 + 1500 }],
      fields: { pollIntervalMs: 1500, stuck: false },
    },
    {
      name: 'READY at the cap stays at 30 s',
      job: { ...jobs.processing(), uploadedAt: T0 - 600_000, pollIntervalMs: 30_000 },
      event: { type: 'streamPolled', stream: stream('READY') },
      state: 'processing',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 + 30_000 }],
    },
    {
      name: 'READY past the stuck deadline: flagged, still polled, never cancelled',
      job: jobs.processing(),
      event: { type: 'streamPolled', stream: stream('READY') },
      now: T0 + 3_600_000,
      state: 'processing',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 + 3_600_000 + 1500 }],
      fields: { stuck: true },
    },
    {
      name: 'COMPLETED: export now',
      job: jobs.processing(),
      event: { type: 'streamPolled', stream: stream('COMPLETED') },
      state: 'exporting',
      effects: [{ type: 'exportNow', streamId: S1 }],
      fields: { finalizedAt: T0 - 100 },
    },
    {
      name: 'COMPLETED but finalised longer ago than the safe export window: expired',
      job: jobs.processing(),
      event: {
        type: 'streamPolled',
        stream: stream('COMPLETED', { finalizedTimestamp: new Date(T0 - SAFE - 1).toISOString() }),
      },
      state: 'expired',
      effects: [],
    },
    {
      name: 'FAILED without components: read them first',
      job: jobs.processing(),
      event: { type: 'streamPolled', stream: stream('FAILED') },
      state: 'processing',
      effects: [{ type: 'readComponents', streamId: S1 }],
      fields: { stream: { state: 'FAILED', stateDescription: null } },
    },
    {
      name: 'FAILED with components: failed, culprit is the processor that did not just get closed',
      job: jobs.processing(),
      event: { type: 'streamPolled', stream: stream('FAILED'), components: failedComponents },
      state: 'failed',
      effects: [],
      fields: {
        error: {
          class: 'processing',
          processorId: 'diarization',
          internalErrorName: 'PROCESSOR_TRANSCODING_ERROR',
          message:
            'Processing failed in diarization: JobFailedException: Invalid data found [PROCESSOR_TRANSCODING_ERROR]',
          stateDescription: failedComponents.processors[1]!.stateDescription,
        },
      },
    },
    {
      name: 'EXPIRED: expired',
      job: jobs.processing(),
      event: { type: 'streamPolled', stream: stream('EXPIRED') },
      state: 'expired',
      effects: [],
    },
    {
      name: 'poll network error: retry with backoff, not failed',
      job: jobs.processing(),
      event: { type: 'pollFailed', error: failures.network },
      state: 'processing',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 + 500 }],
      fields: { failures: 1 },
    },
    {
      name: 'poll 401: pause, no further poll until resume',
      job: jobs.processing(),
      event: { type: 'pollFailed', error: failures.auth401 },
      state: 'processing',
      effects: [{ type: 'pauseQueue', reason: 'credentials', message: 'bad key' }],
    },
    {
      name: 'poll 404 before retention ended: failed',
      job: jobs.processing(),
      event: { type: 'pollFailed', error: failures.template404 },
      state: 'failed',
      effects: [],
      fields: { error: expect.objectContaining({ message: expect.not.stringMatching(/retention/) }) },
    },
    {
      name: 'poll 404 after retention: expired',
      job: { ...jobs.processing(), finalizedAt: T0 - ctx.retentionMs },
      event: { type: 'pollFailed', error: failures.template404 },
      state: 'expired',
      effects: [],
    },
    {
      name: 'components read: failed with the details',
      job: jobs.awaitingComponents(),
      event: { type: 'componentsRead', components: failedComponents },
      state: 'failed',
      effects: [],
      fields: {
        error: {
          class: 'processing',
          processorId: 'diarization',
          internalErrorName: 'PROCESSOR_TRANSCODING_ERROR',
        } as JobRecord['error'],
      },
    },
    {
      name: 'components unreadable: failed anyway, saying details are missing',
      job: jobs.awaitingComponents(),
      event: { type: 'componentsReadFailed', error: failures.network },
      state: 'failed',
      effects: [],
      fields: { error: { class: 'processing', message: 'Processing failed (details unavailable: socket hang up)' } },
    },
    {
      name: 'FAILED after a user cancel: canceled, not failed',
      job: { ...jobs.processing(), canceledByUser: true },
      event: { type: 'streamPolled', stream: stream('FAILED') },
      state: 'canceled',
      effects: [],
    },
  ]);
});

describe('export and results', () => {
  runTable([
    {
      name: 'export staged → write results',
      job: jobs.exporting(),
      event: { type: 'exportSucceeded', stagedPath: '/state/x.json' },
      state: 'exporting',
      effects: [{ type: 'writeResults', stagedPath: '/state/x.json' }],
      fields: { stagedResultPath: '/state/x.json', attempts: { upload: 0, export: 1 } },
    },
    {
      name: '204 no data: completed with a warning, nothing saved',
      job: jobs.exporting(),
      event: { type: 'exportSucceeded', stagedPath: null },
      state: 'completed',
      effects: [],
      fields: { results: [], completedAt: T0 },
    },
    {
      name: 'export timeout: retry later within the safe window',
      job: jobs.exporting(),
      event: { type: 'exportFailed', error: failures.timeout },
      state: 'exporting',
      effects: [{ type: 'scheduleRetry', at: T0 + 500 }],
      fields: { nextAttemptAt: T0 + 500 },
    },
    {
      name: 'export retry would land past the safe window: expired',
      job: { ...jobs.exporting(), finalizedAt: T0 - SAFE + 100 },
      event: { type: 'exportFailed', error: failures.capacity503 },
      state: 'expired',
      effects: [],
    },
    {
      name: 'export 404 within the retention period: failed, and not blamed on the retention',
      job: jobs.exporting(),
      event: { type: 'exportFailed', error: failures.template404 },
      state: 'failed',
      effects: [],
      fields: { error: expect.objectContaining({ message: expect.stringMatching(/no longer knows stream/) }) },
    },
    {
      name: 'export 404 past the retention period: expired',
      job: { ...jobs.exporting(), finalizedAt: T0 - ctx.retentionMs },
      event: { type: 'exportFailed', error: failures.template404 },
      state: 'expired',
      effects: [],
      fields: { error: expect.objectContaining({ message: expect.stringMatching(/retention period over/) }) },
    },
    {
      name: 'export 409: re-read the stream now',
      job: jobs.exporting(),
      event: { type: 'exportFailed', error: failures.conflict409 },
      state: 'exporting',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 }],
    },
    {
      name: 're-read after 409 says FAILED: read components',
      job: jobs.exporting(),
      event: { type: 'streamPolled', stream: stream('FAILED') },
      state: 'processing',
      effects: [{ type: 'readComponents', streamId: S1 }],
    },
    {
      name: 'export 401: pause, job keeps exporting',
      job: jobs.exporting(),
      event: { type: 'exportFailed', error: failures.auth401 },
      state: 'exporting',
      effects: [{ type: 'pauseQueue', reason: 'credentials', message: 'bad key' }],
    },
    {
      name: 'results written: completed, staged copy released',
      job: jobs.writing(),
      event: { type: 'resultsWritten', results: [{ format: 'json', path: '/media/a.json', writtenBySluice: true }] },
      state: 'completed',
      effects: [],
      fields: { completedAt: T0, results: [{ format: 'json', path: '/media/a.json', writtenBySluice: true }] },
      absent: ['stagedResultPath', 'resultWarning'],
    },
    {
      name: 'results not writable: completed with a warning, export kept',
      job: jobs.writing(),
      event: { type: 'resultsWriteFailed', message: 'The folder is read-only.' },
      state: 'completed',
      effects: [],
      fields: { stagedResultPath: '/state/exports/job-1.json', completedAt: T0 },
    },
    {
      name: 'rewrite succeeded: warning cleared, completedAt kept',
      job: jobs.completedWarn(),
      event: { type: 'resultsWritten', results: [] },
      state: 'completed',
      effects: [],
      fields: { completedAt: T0 - 10 },
      absent: ['resultWarning', 'stagedResultPath'],
    },
  ]);

  it('the write warning names the kept copy', () => {
    const out = next(jobs.writing(), { type: 'resultsWriteFailed', message: 'Disk full.' }, T0, ctx);
    expect(out.job.resultWarning).toContain('/state/exports/job-1.json');
    expect(out.job.error).toBeUndefined();
  });
});

describe('user and lifecycle events', () => {
  runTable([
    {
      name: 'cancel queued: no stream to cancel',
      job: jobs.queued(),
      event: { type: 'cancelRequested' },
      state: 'canceled',
      effects: [],
      fields: { canceledByUser: true },
    },
    {
      name: 'cancel queued with a maybe-existing stream',
      job: jobs.queuedVerify(),
      event: { type: 'cancelRequested' },
      state: 'canceled',
      effects: [{ type: 'cancelStream', streamId: S1 }],
    },
    {
      name: 'cancel uploading: abort, then cancel',
      job: jobs.uploading(),
      event: { type: 'cancelRequested' },
      state: 'canceled',
      effects: [
        { type: 'abortUpload', streamId: S1 },
        { type: 'cancelStream', streamId: S1 },
      ],
    },
    {
      name: 'cancel processing: cancel the stream',
      job: jobs.processing(),
      event: { type: 'cancelRequested' },
      state: 'canceled',
      effects: [{ type: 'cancelStream', streamId: S1 }],
    },
    {
      name: 'cancel exporting: nothing to cancel remotely',
      job: jobs.exporting(),
      event: { type: 'cancelRequested' },
      state: 'canceled',
      effects: [],
    },
    {
      name: 'retry failed: same template+params, old stream accounted for',
      job: jobs.failed(),
      event: { type: 'retryRequested' },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 }],
      fields: {
        previousStreamIds: [S1],
        templateId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        params: { language: 'en', diarization: true },
        uploadConfirmed: false,
      },
      absent: ['streamId', 'error'],
    },
    {
      name: 'retry canceled',
      job: jobs.canceled(),
      event: { type: 'retryRequested' },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 }],
      fields: { canceledByUser: false },
    },
    {
      name: 'retry expired',
      job: jobs.expired(),
      event: { type: 'retryRequested' },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 }],
    },
    {
      name: 'expiry detected while processing',
      job: jobs.processing(),
      event: { type: 'expiredDetected' },
      state: 'expired',
      effects: [],
    },
    {
      name: 'network down while queued: postponed, still queued',
      job: jobs.queued(),
      event: { type: 'networkDown', retryAt: T0 + 5000 },
      state: 'queued',
      effects: [{ type: 'scheduleRetry', at: T0 + 5000 }],
      fields: { nextAttemptAt: T0 + 5000 },
    },
    {
      name: 'network down while processing: poll later, still processing',
      job: jobs.processing(),
      event: { type: 'networkDown', retryAt: T0 + 5000 },
      state: 'processing',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 + 5000 }],
    },
    {
      name: 'network down while exporting: retry later, still exporting',
      job: jobs.exporting(),
      event: { type: 'networkDown', retryAt: T0 + 5000 },
      state: 'exporting',
      effects: [{ type: 'scheduleRetry', at: T0 + 5000 }],
    },
    {
      name: 'resume processing: poll now',
      job: jobs.processing(),
      event: { type: 'resume' },
      state: 'processing',
      effects: [{ type: 'pollLater', streamId: S1, at: T0 }],
    },
    {
      name: 'resume with FAILED pending: read components',
      job: jobs.awaitingComponents(),
      event: { type: 'resume' },
      state: 'processing',
      effects: [{ type: 'readComponents', streamId: S1 }],
    },
    {
      name: 'resume exporting: export now',
      job: jobs.exporting(),
      event: { type: 'resume' },
      state: 'exporting',
      effects: [{ type: 'exportNow', streamId: S1 }],
    },
    {
      name: 'resume exporting before its retry time: wait for it',
      job: { ...jobs.exporting(), nextAttemptAt: T0 + 999 },
      event: { type: 'resume' },
      state: 'exporting',
      effects: [{ type: 'scheduleRetry', at: T0 + 999 }],
    },
    {
      name: 'resume exporting past the safe window: expired',
      job: jobs.exporting(),
      event: { type: 'resume' },
      now: T0 + SAFE,
      state: 'expired',
      effects: [],
    },
    {
      name: 'resume writing: write the staged copy',
      job: jobs.writing(),
      event: { type: 'resume' },
      state: 'exporting',
      effects: [{ type: 'writeResults', stagedPath: '/state/exports/job-1.json' }],
    },
  ]);
});
