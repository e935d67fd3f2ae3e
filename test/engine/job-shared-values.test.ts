// New jobs share their empty stream-id list, result list and attempt counts (a 100,000-file watch
// folder held 300,000 of them): shared only holds while every change makes a new value, so the
// shared values are frozen and a job's whole life through the reducer must leave them as they were.
import { describe, expect, it } from 'vitest';
import { createJob, type JobRecord } from '../../main/engine/job.js';
import { next } from '../../main/engine/reducer.js';
import { ctx, failures, S1, S2, stream, T0 } from './fixtures.js';

const make = (id: string): JobRecord =>
  createJob(
    {
      id,
      source: { path: `/in/${id}.wav`, size: 1000, mtimeMs: T0 },
      origin: { kind: 'watch', folderId: 'f' },
      seq: 1,
      templateId: 't',
      params: {},
    },
    T0,
  );

describe('the values every new job starts with', () => {
  it('are one frozen value for all jobs', () => {
    const a = make('a');
    const b = make('b');
    expect(a.previousStreamIds).toBe(b.previousStreamIds);
    expect(a.results).toBe(b.results);
    expect(a.attempts).toBe(b.attempts);
    for (const v of [a.previousStreamIds, a.results, a.attempts]) expect(Object.isFrozen(v)).toBe(true);
  });

  it('stay empty and zero through a job that fails, is retried and finishes', () => {
    let j = make('c');
    const seen: JobRecord[] = [j];
    const step = (e: Parameters<typeof next>[1], at: number): void => {
      j = next(j, e, at, ctx).job;
      seen.push(j);
    };
    step({ type: 'dispatched', freshStreamId: S1 }, T0 + 1);
    step({ type: 'uploadFailed', error: failures.network }, T0 + 2);
    // The first upload is in doubt: its stream is looked up, not found, and uploaded again.
    step({ type: 'dispatched', freshStreamId: S2 }, T0 + 10_000);
    step({ type: 'reattachResult', found: false }, T0 + 10_000);
    step({ type: 'uploadSucceeded', stream: stream('READY') }, T0 + 10_001);
    step({ type: 'streamPolled', stream: stream('COMPLETED') }, T0 + 11_000);
    step({ type: 'exportSucceeded', stagedPath: '/state/exports/c.json' }, T0 + 11_001);
    step(
      { type: 'resultsWritten', results: [{ format: 'json', path: '/in/c.json', writtenBySluice: true }] },
      T0 + 11_002,
    );
    expect(j.state).toBe('completed');
    // The job's own values moved on (one result, both attempts counted)...
    expect(j.results).toHaveLength(1);
    expect(j.attempts.upload).toBeGreaterThanOrEqual(2);
    // ...while a job created now still starts from nothing.
    const fresh = make('d');
    expect(fresh.previousStreamIds).toEqual([]);
    expect(fresh.results).toEqual([]);
    expect(fresh.attempts).toEqual({ upload: 0, export: 0 });
    expect(seen.length).toBe(9);
  });
});
