// Adding a file already known: the newest job's state decides, and `force` always makes a new job.
import { describe, expect, it } from 'vitest';
import { addOutcome } from '../../main/engine/add-outcome.js';
import type { JobState } from '../../main/engine/job.js';

const unchanged = { kind: 'unchanged', jobId: 'j' } as const;
const byHand = { force: false, retryFailed: true };
const byWatch = { force: false, retryFailed: false };

describe('addOutcome', () => {
  it.each<[JobState, string, string]>([
    ['queued', 'already-queued', 'already-queued'],
    ['uploading', 'already-queued', 'already-queued'],
    ['completed', 'already-done', 'already-done'],
    ['failed', 'retried', 'already-done'],
    ['canceled', 'retried', 'already-done'],
    ['expired', 'retried', 'already-done'],
  ])('an unchanged file whose job is %s: %s by hand, %s from a watch folder', (state, hand, watch) => {
    expect(addOutcome(unchanged, { state }, byHand)).toBe(hand);
    expect(addOutcome(unchanged, { state }, byWatch)).toBe(watch);
  });

  it('a new or changed file, or a forced add, is a new job', () => {
    expect(addOutcome({ kind: 'new' }, undefined, byHand)).toBeUndefined();
    expect(addOutcome({ kind: 'changed', jobId: 'j' }, { state: 'completed' }, byHand)).toBeUndefined();
    expect(addOutcome(unchanged, { state: 'completed' }, { force: true, retryFailed: true })).toBeUndefined();
  });
});
