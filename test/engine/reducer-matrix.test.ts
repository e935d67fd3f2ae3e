// Every (job state × event) pair: the ones listed as valid move the job or ask for an effect; every
// other pair returns the very same job with no effect (the reducer never throws).
import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../main/engine/job.js';
import { next } from '../../main/engine/reducer.js';
import { ctx, failures, jobs, S1, stream, T0, type Fixture } from './fixtures.js';

const events = {
  dispatched: { type: 'dispatched', freshStreamId: 'fresh' },
  uploadProgress: { type: 'uploadProgress', uploadedBytes: 10 },
  uploadSucceeded: { type: 'uploadSucceeded', stream: stream('READY') },
  uploadFailed: { type: 'uploadFailed', error: failures.network },
  reattachResult: { type: 'reattachResult', found: false },
  reattachFailed: { type: 'reattachFailed', error: failures.network },
  cancelAnswered: { type: 'cancelAnswered', stream: stream('FAILED') },
  cancelFailed: { type: 'cancelFailed', error: failures.network },
  streamPolled: { type: 'streamPolled', stream: stream('READY') },
  pollFailed: { type: 'pollFailed', error: failures.network },
  componentsRead: { type: 'componentsRead', components: { processors: [] } },
  componentsReadFailed: { type: 'componentsReadFailed', error: failures.network },
  exportSucceeded: { type: 'exportSucceeded', stagedPath: '/state/x.json' },
  exportFailed: { type: 'exportFailed', error: failures.network },
  resultsWritten: { type: 'resultsWritten', results: [] },
  resultsWriteFailed: { type: 'resultsWriteFailed', message: 'EACCES' },
  cancelRequested: { type: 'cancelRequested' },
  uploadInterrupted: { type: 'uploadInterrupted' },
  retryRequested: { type: 'retryRequested' },
  expiredDetected: { type: 'expiredDetected' },
  networkDown: { type: 'networkDown', retryAt: T0 + 5000 },
  resume: { type: 'resume' },
  reordered: { type: 'reordered', priority: 0, seq: 99 },
  dismissRequested: { type: 'dismissRequested' },
  resultsRewritten: { type: 'resultsRewritten', results: [] },
  sourceMoved: { type: 'sourceMoved', movedTo: '/media/done/a.wav', results: [] },
  resultsSuperseded: { type: 'resultsSuperseded', results: [] },
  sourceChanged: { type: 'sourceChanged', uploadStarted: true },
  sourceAway: { type: 'sourceAway' },
  sourceSettled: { type: 'sourceSettled', source: { path: '/media/a.wav', size: 2048, mtimeMs: T0 + 1 } },
  // Only shared jobs take it (shared-folder.test.ts); none of these fixtures is shared.
  handedOver: { type: 'handedOver', host: 'EDIT-BAY-2' },
  reviewNoted: {
    type: 'reviewNoted',
    review: { outcome: 'carried', from: 'earlier', note: 'Review work carried over.' },
  },
} satisfies { [K in JobEvent['type']]: Extract<JobEvent, { type: K }> };

type EventName = keyof typeof events;

const valid: Record<Fixture, EventName[]> = {
  queued: ['dispatched', 'cancelRequested', 'networkDown', 'reordered', 'sourceChanged', 'sourceSettled'],
  queuedWithId: ['dispatched', 'cancelRequested', 'networkDown', 'reordered', 'sourceChanged', 'sourceSettled'],
  queuedVerify: ['dispatched', 'cancelRequested', 'networkDown', 'reordered', 'sourceChanged', 'sourceSettled'],
  uploading: [
    'uploadProgress',
    'uploadSucceeded',
    'uploadFailed',
    'cancelRequested',
    'uploadInterrupted',
    'resume',
    'sourceChanged',
    'sourceAway',
    'sourceSettled',
  ],
  verifying: [
    'reattachResult',
    'reattachFailed',
    'cancelAnswered',
    'cancelFailed',
    'cancelRequested',
    'resume',
    'sourceChanged',
    'sourceSettled',
  ],
  processing: ['streamPolled', 'pollFailed', 'cancelRequested', 'expiredDetected', 'networkDown', 'resume'],
  awaitingComponents: [
    'streamPolled',
    'pollFailed',
    'componentsRead',
    'componentsReadFailed',
    'cancelRequested',
    'expiredDetected',
    'networkDown',
    'resume',
  ],
  exporting: [
    'streamPolled',
    'exportSucceeded',
    'exportFailed',
    'cancelRequested',
    'expiredDetected',
    'networkDown',
    'resume',
    'reviewNoted',
  ],
  writing: ['resultsWritten', 'resultsWriteFailed', 'cancelRequested', 'resume', 'reviewNoted'],
  completed: ['dismissRequested', 'resultsRewritten', 'sourceMoved', 'resultsSuperseded', 'reviewNoted'],
  completedWarn: [
    'resultsWritten',
    'resultsWriteFailed',
    'dismissRequested',
    'resultsRewritten',
    'sourceMoved',
    'resultsSuperseded',
    'reviewNoted',
  ],
  failed: ['retryRequested', 'dismissRequested', 'sourceMoved', 'resultsSuperseded'],
  canceled: ['retryRequested', 'dismissRequested', 'resultsSuperseded'],
  expired: ['retryRequested', 'dismissRequested', 'resultsSuperseded'],
};

const rows = (Object.keys(jobs) as Fixture[]).flatMap((fixture) =>
  (Object.keys(events) as EventName[]).map((event) => ({ fixture, event, ok: valid[fixture].includes(event) })),
);

describe('reducer: state × event matrix', () => {
  it.each(rows)('$fixture + $event → valid=$ok', ({ fixture, event, ok }) => {
    const job = jobs[fixture]();
    const before = structuredClone(job);
    const out = next(job, events[event], T0, ctx);
    expect(job).toEqual(before); // never mutates its input
    if (ok) {
      expect(out.job !== job || out.effects.length > 0).toBe(true);
    } else {
      expect(out.job).toBe(job);
      expect(out.effects).toEqual([]);
    }
  });

  it('ignores events about another stream', () => {
    const other = stream('COMPLETED', { streamId: 'not-ours' });
    for (const [fixture, ev] of [
      ['uploading', { type: 'uploadSucceeded', stream: other }],
      ['processing', { type: 'streamPolled', stream: other }],
      ['verifying', { type: 'reattachResult', found: true, stream: other }],
      ['verifying', { type: 'cancelAnswered', stream: other }],
    ] as const) {
      const job = jobs[fixture]();
      expect(next(job, ev, T0, ctx)).toEqual({ job, effects: [] });
    }
    expect(S1).not.toBe('not-ours');
  });
});
