import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../main/engine/job.js';
import {
  compareJobs,
  holdsStream,
  move,
  planDispatch,
  takesUploadSlot,
  type Reorder,
  type SchedulerInput,
} from '../../main/engine/scheduler.js';
import { base, T0 } from './fixtures.js';

const j = (id: string, p: Partial<JobRecord> = {}): JobRecord => ({ ...base(), id, ...p });
const watch = (id: string, seq: number, p: Partial<JobRecord> = {}) =>
  j(id, { seq, priority: 1, origin: { kind: 'watch', folderId: 'f1' }, ...p });
const manual = (id: string, seq: number, p: Partial<JobRecord> = {}) =>
  j(id, { seq, priority: 0, origin: { kind: 'manual' }, ...p });

const ids = (input: Omit<SchedulerInput, 'now'>) => planDispatch({ now: T0, ...input }).start.map((x) => x.id);

describe('planDispatch: which jobs start', () => {
  it.each<{ name: string; input: Omit<SchedulerInput, 'now'>; want: string[] }>([
    { name: 'empty', input: { jobs: [] }, want: [] },
    {
      name: 'arrival order, default concurrency 2',
      input: { jobs: [watch('c', 3), watch('a', 1), watch('b', 2)] },
      want: ['a', 'b'],
    },
    { name: 'manual before watch', input: { jobs: [watch('w', 1), manual('m', 9)] }, want: ['m', 'w'] },
    {
      name: 'uploads in progress take slots',
      input: { jobs: [watch('u', 0, { state: 'uploading' }), watch('a', 1), watch('b', 2)] },
      want: ['a'],
    },
    {
      name: 'no free upload slot',
      input: { jobs: [watch('u1', 0, { state: 'uploading' }), watch('u2', 0, { state: 'uploading' }), watch('a', 1)] },
      want: [],
    },
    {
      name: 'streams in flight limit counts processing too',
      input: {
        jobs: [watch('p', 0, { state: 'processing' }), watch('a', 1), watch('b', 2)],
        limits: { uploadConcurrency: 2, maxStreamsInFlight: 2 },
      },
      want: ['a'],
    },
    {
      name: 'exporting does not hold a stream slot',
      input: {
        jobs: [watch('e', 0, { state: 'exporting' }), watch('a', 1)],
        limits: { uploadConcurrency: 2, maxStreamsInFlight: 1 },
      },
      want: ['a'],
    },
    {
      name: 'future retry not eligible',
      input: { jobs: [watch('a', 1, { nextAttemptAt: T0 + 1 }), watch('b', 2)] },
      want: ['b'],
    },
    { name: 'due retry eligible', input: { jobs: [watch('a', 1, { nextAttemptAt: T0 })] }, want: ['a'] },
    { name: 'global pause', input: { jobs: [watch('a', 1)], paused: true }, want: [] },
    { name: 'timed pause still running', input: { jobs: [watch('a', 1)], paused: { until: T0 + 1 } }, want: [] },
    { name: 'timed pause over', input: { jobs: [watch('a', 1)], paused: { until: T0 } }, want: ['a'] },
    {
      name: 'paused folder skipped, manual unaffected',
      input: { jobs: [watch('a', 1), manual('m', 5)], pausedFolders: new Set(['f1']) },
      want: ['m'],
    },
    {
      name: 'terminal and active jobs are not candidates',
      input: { jobs: [watch('d', 1, { state: 'completed' }), watch('f', 2, { state: 'failed' }), watch('a', 3)] },
      want: ['a'],
    },
    {
      name: 'higher concurrency',
      input: {
        jobs: [watch('a', 1), watch('b', 2), watch('c', 3)],
        limits: { uploadConcurrency: 5, maxStreamsInFlight: 50 },
      },
      want: ['a', 'b', 'c'],
    },
    {
      name: 'the first few of many, in queue order whatever the input order',
      input: {
        jobs: Array.from({ length: 20 }, (_, i) => watch(`w${String(19 - i).padStart(2, '0')}`, 19 - i)),
        limits: { uploadConcurrency: 3, maxStreamsInFlight: 50 },
      },
      want: ['w00', 'w01', 'w02'],
    },
  ])('$name', ({ input, want }) => expect(ids(input)).toEqual(want));

  it.each<{ name: string; input: Omit<SchedulerInput, 'now'>; want: boolean }>([
    {
      name: 'every stream slot taken, a job eligible',
      input: {
        jobs: [watch('p', 0, { state: 'processing' }), watch('a', 1)],
        limits: { uploadConcurrency: 2, maxStreamsInFlight: 1 },
      },
      want: true,
    },
    {
      name: 'every stream slot taken, nothing eligible',
      input: {
        jobs: [watch('p', 0, { state: 'processing' }), watch('a', 1, { nextAttemptAt: T0 + 1 })],
        limits: { uploadConcurrency: 2, maxStreamsInFlight: 1 },
      },
      want: false,
    },
    {
      name: 'only the upload slots taken',
      input: { jobs: [watch('u1', 0, { state: 'uploading' }), watch('u2', 0, { state: 'uploading' }), watch('a', 1)] },
      want: false,
    },
  ])('waiting for a stream slot: $name', ({ input, want }) =>
    expect(planDispatch({ now: T0, ...input }).waitingForStream).toBe(want),
  );
});

describe('planDispatch with the slots in use counted by the caller', () => {
  const STATES = ['queued', 'uploading', 'processing', 'exporting', 'failed'] as const;
  const counted = (jobs: Iterable<JobRecord>) => {
    const all = [...jobs];
    return {
      used: { uploading: all.filter(takesUploadSlot).length, inFlight: all.filter(holdsStream).length },
      queuedInOrder: all.filter((x) => x.state === 'queued').sort(compareJobs),
    };
  };

  it('plans exactly as a full count does, whatever the mix', () => {
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 500; round++) {
      const jobs = Array.from({ length: rand(12) }, (_, i) =>
        (rand(3) === 0 ? manual : watch)(`j${i}`, rand(20), {
          state: STATES[rand(STATES.length)]!,
          ...(rand(4) === 0 ? { nextAttemptAt: T0 + 1 } : {}),
        }),
      );
      const limits = { uploadConcurrency: 1 + rand(3), maxStreamsInFlight: 1 + rand(5) };
      const pausedFolders = new Set(rand(5) === 0 ? ['f1'] : []);
      const plain = planDispatch({ jobs, now: T0, limits, pausedFolders });
      const withCounts = planDispatch({ jobs, now: T0, limits, pausedFolders, counted: counted(jobs) });
      expect(withCounts.start.map((x) => x.id)).toEqual(plain.start.map((x) => x.id));
      expect(withCounts.waitingForStream).toBe(plain.waitingForStream);
    }
  });

  it('reads the queue only from its head: to the first eligible job when no slot is free', () => {
    const jobs = [
      watch('p', 0, { state: 'processing' }),
      ...Array.from({ length: 1000 }, (_, i) => watch(`q${i}`, i + 1)),
    ];
    let visited = 0;
    const counting = {
      *[Symbol.iterator]() {
        for (const x of jobs) {
          visited++;
          yield x;
        }
      },
    };
    const limits = { uploadConcurrency: 2, maxStreamsInFlight: 1 };
    const { used } = counted(jobs);
    const plan = planDispatch({ jobs, now: T0, limits, counted: { used, queuedInOrder: counting } });
    expect(plan).toEqual({ start: [], waitingForStream: true });
    expect(visited).toBe(2);
    visited = 0;
    const roomy = { uploadConcurrency: 2, maxStreamsInFlight: 10 };
    const two = planDispatch({ jobs, now: T0, limits: roomy, counted: { used, queuedInOrder: counting } });
    expect(two.start.map((x) => x.id)).toEqual(['q0', 'q1']);
    expect(visited).toBe(4);
    visited = 0;
    expect(planDispatch({ jobs: counting, now: T0, limits }).waitingForStream).toBe(true);
    expect(visited).toBe(1001);
  });
});

describe('move up, down, to the top, to the bottom', () => {
  const order = (jobs: JobRecord[]) => [...jobs].sort(compareJobs).map((x) => x.id);
  const apply = (jobs: JobRecord[], changed: Reorder[]) =>
    jobs.map((x) => {
      const c = changed.find((k) => k.id === x.id);
      return c ? { ...x, priority: c.priority, seq: c.seq } : x;
    });
  const jobs = [manual('m', 1), watch('a', 2), watch('b', 3), watch('c', 4)];

  it.each([
    { id: 'b', dir: 'up' as const, want: ['m', 'b', 'a', 'c'] },
    { id: 'b', dir: 'down' as const, want: ['m', 'a', 'c', 'b'] },
    { id: 'a', dir: 'up' as const, want: ['a', 'm', 'b', 'c'] },
    { id: 'm', dir: 'up' as const, want: ['m', 'a', 'b', 'c'] },
    { id: 'c', dir: 'down' as const, want: ['m', 'a', 'b', 'c'] },
    { id: 'zz', dir: 'up' as const, want: ['m', 'a', 'b', 'c'] },
    { id: 'c', dir: 'top' as const, want: ['c', 'm', 'a', 'b'] },
    { id: 'm', dir: 'bottom' as const, want: ['a', 'b', 'c', 'm'] },
    { id: 'm', dir: 'top' as const, want: ['m', 'a', 'b', 'c'] },
    { id: 'c', dir: 'bottom' as const, want: ['m', 'a', 'b', 'c'] },
  ])('$id $dir', ({ id, dir, want }) => {
    expect(order(apply(jobs, move(jobs, id, dir)))).toEqual(want);
  });

  it('equal keys still move', () => {
    const tied = [watch('x', 1), watch('y', 1)];
    expect(order(apply(tied, move(tied, 'y', 'up')))).toEqual(['y', 'x']);
  });

  it('moves only queued jobs, among queued jobs', () => {
    const mixed = [manual('m', 1, { state: 'uploading' }), watch('a', 2), watch('b', 3)];
    expect(move(mixed, 'm', 'down')).toEqual([]);
    expect(order(apply(mixed, move(mixed, 'b', 'top'))).filter((x) => x !== 'm')).toEqual(['b', 'a']);
  });

  it('keeps moving from the order the last move left, any number of times', () => {
    let q = jobs;
    for (const [id, dir] of [
      ['c', 'up'],
      ['c', 'up'],
      ['c', 'up'],
      ['m', 'bottom'],
      ['a', 'down'],
    ] as const)
      q = apply(q, move(q, id, dir));
    expect(order(q)).toEqual(['c', 'b', 'a', 'm']);
  });
});
