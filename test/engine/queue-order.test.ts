// The Queue screen's order and the batch counter, decided in the engine.
import { describe, expect, it } from 'vitest';
import { batchDone, batchWith } from '../../main/engine/batch.js';
import type { JobRecord, JobState } from '../../main/engine/job.js';
import { compareQueueOrder, queuePosition } from '../../main/engine/queue-order.js';
import { jobs, T0 } from './fixtures.js';

const j = (id: string, state: JobState, p: Partial<JobRecord> = {}): JobRecord => ({
  ...jobs.queued(),
  id,
  state,
  ...p,
});

describe('queue order', () => {
  const list = [
    j('done-old', 'completed', { completedAt: T0 + 1 }),
    j('watch-2', 'queued', { priority: 1, seq: 2 }),
    j('manual-9', 'queued', { priority: 0, seq: 9 }),
    j('up', 'uploading', { priority: 1, seq: 5 }),
    j('done-new', 'failed', { completedAt: T0 + 50 }),
    j('proc', 'processing', { priority: 0, seq: 7 }),
    j('moved-top', 'queued', { priority: 0, seq: -1 }),
  ];
  const want = ['proc', 'up', 'moved-top', 'manual-9', 'watch-2', 'done-new', 'done-old'];

  it('in flight, then waiting in start order, then finished newest first', () => {
    expect([...list].sort(compareQueueOrder).map((x) => x.id)).toEqual(want);
  });

  it('position sorts the same way (what the renderer sorts by)', () => {
    expect([...list].sort((a, b) => queuePosition(a) - queuePosition(b)).map((x) => x.id)).toEqual(want);
  });
});

describe('batch', () => {
  const states = new Map<string, JobState>();
  const stateOf = (id: string) => states.get(id);

  it('grows while anything in it is unfinished, and starts anew once all finished', () => {
    states.set('a', 'queued').set('b', 'uploading');
    let batch = batchWith(new Set(), j('a', 'queued'), stateOf);
    batch = batchWith(batch, j('b', 'uploading'), stateOf);
    expect([...batch]).toEqual(['a', 'b']);
    states.set('a', 'completed');
    expect(batchDone(batch, stateOf)).toBe(1);
    states.set('c', 'queued');
    batch = batchWith(batch, j('c', 'queued'), stateOf);
    expect([...batch]).toEqual(['a', 'b', 'c']);
    states.set('b', 'failed').set('c', 'canceled');
    expect(batchDone(batch, stateOf)).toBe(3);
    states.set('d', 'queued');
    expect([...batchWith(batch, j('d', 'queued'), stateOf)]).toEqual(['d']);
  });

  it('a finished job never joins, and a job gone from the journal counts as finished', () => {
    const batch = new Set(['gone']);
    expect(batchWith(batch, j('x', 'completed'), stateOf)).toBe(batch);
    expect(batchDone(batch, stateOf)).toBe(1);
  });
});
