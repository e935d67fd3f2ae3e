// A source that changes after it was taken: no failure, the upload stopped and its stream canceled,
// the job held until the finished file is reported, then uploaded once.
import { describe, expect, it } from 'vitest';
import { createJob, type JobRecord } from '../../main/engine/job.js';
import { next } from '../../main/engine/reducer.js';
import { planDispatch } from '../../main/engine/scheduler.js';

const T0 = 1_800_000_000_000;
const base = (): JobRecord =>
  createJob(
    {
      id: 'j',
      source: { path: '/in/Podcast.mp3', size: 1000, mtimeMs: T0 },
      origin: { kind: 'watch', folderId: 'f' },
      seq: 1,
      templateId: 't',
      params: {},
    },
    T0,
  );

const uploading = (): JobRecord => next(base(), { type: 'dispatched', freshStreamId: 's1' }, T0).job;
const plan = (j: JobRecord) => planDispatch({ jobs: [j], now: T0 + 10 }).start.length;

describe('a source that changes after it was taken', () => {
  it('during its upload: aborted, its stream canceled, held; the finished file goes up under a new id', () => {
    const up = uploading();
    const changed = next(up, { type: 'sourceChanged', uploadStarted: true }, T0 + 1);
    expect(changed.job).toMatchObject({ state: 'uploading', verifyStream: true, awaitingCopy: true });
    expect(changed.effects).toEqual([
      { type: 'abortUpload', streamId: 's1' },
      { type: 'cancelStream', streamId: 's1' },
    ]);
    expect(changed.job.error).toBeUndefined();
    // The service says the stream was canceled: the job waits, queued, and is not dispatched.
    const canceled = next(
      changed.job,
      {
        type: 'cancelAnswered',
        stream: { streamId: 's1', state: 'FAILED', stateDescription: 'Canceled', finalizedTimestamp: null },
      },
      T0 + 2,
    );
    expect(canceled.job).toMatchObject({ state: 'queued', previousStreamIds: ['s1'], awaitingCopy: true });
    expect(plan(canceled.job)).toBe(0);
    // The watch folder reports the finished file: the job takes it and may go.
    const settled = next(
      canceled.job,
      { type: 'sourceSettled', source: { path: '/in/Podcast.mp3', size: 2000, mtimeMs: T0 + 5 } },
      T0 + 3,
    );
    expect(settled.job).toMatchObject({ state: 'queued', totalBytes: 2000, source: { size: 2000 } });
    expect(settled.job.awaitingCopy).toBeUndefined();
    expect(plan(settled.job)).toBe(1);
    const again = next(settled.job, { type: 'dispatched', freshStreamId: 's2' }, T0 + 4);
    expect(again.effects).toEqual([{ type: 'startUpload', streamId: 's2' }]);
  });

  it('before its upload sent anything: back to the queue, same stream id, no cancel', () => {
    const changed = next(uploading(), { type: 'sourceChanged', uploadStarted: false }, T0 + 1);
    expect(changed.job).toMatchObject({ state: 'queued', streamId: 's1', awaitingCopy: true, verifyStream: false });
    expect(changed.effects).toEqual([]);
  });

  it('reported finished while the old bytes are still being sent: the upload stops, then the new file goes', () => {
    const settled = next(
      uploading(),
      { type: 'sourceSettled', source: { path: '/in/Podcast.mp3', size: 2000, mtimeMs: T0 + 5 } },
      T0 + 1,
    );
    expect(settled.job).toMatchObject({ state: 'uploading', verifyStream: true, totalBytes: 2000 });
    expect(settled.effects.map((e) => e.type)).toEqual(['abortUpload', 'cancelStream']);
  });

  it('after the upload was confirmed it is new content, not this job’s', () => {
    const up = uploading();
    const done = next(
      up,
      {
        type: 'uploadSucceeded',
        stream: { streamId: 's1', state: 'READY', stateDescription: null, finalizedTimestamp: null },
      },
      T0 + 1,
    ).job;
    expect(next(done, { type: 'sourceChanged', uploadStarted: true }, T0 + 2).job).toBe(done);
  });
});
