// A stream started elsewhere reads as one of our job states, and a History state filter asks the
// service only for the stream states that read as it.
import { describe, expect, it } from 'vitest';
import { STREAM_TO_JOB, streamStatesFor } from '../../main/engine/stream-state.js';
import { isTerminal } from '../../main/engine/job.js';

describe('stream states as job states', () => {
  it('reads a running stream as processing and a finished one as the job state of the same end', () => {
    expect(STREAM_TO_JOB).toEqual({
      READY: 'processing',
      COMPLETED: 'completed',
      FAILED: 'failed',
      EXPIRED: 'expired',
    });
    // Only a running stream can still change.
    expect(
      Object.entries(STREAM_TO_JOB)
        .filter(([, s]) => !isTerminal(s))
        .map(([k]) => k),
    ).toEqual(['READY']);
  });

  it('turns a state filter into the stream states that match it, and none for a state no stream has', () => {
    expect(streamStatesFor(['processing'])).toEqual(['READY']);
    expect(streamStatesFor(['completed', 'failed', 'expired']).sort()).toEqual(['COMPLETED', 'EXPIRED', 'FAILED']);
    expect(streamStatesFor(['queued', 'canceled', 'uploading'])).toEqual([]);
    expect(streamStatesFor([])).toEqual([]);
  });
});
