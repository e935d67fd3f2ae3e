import { describe, expect, it } from 'vitest';
import { ProgressCoalescer, type EngineEvent } from '../../main/engine/events.js';

describe('ProgressCoalescer (≤ 10/s per job)', () => {
  it.each<{ name: string; steps: Array<[string, number, number, boolean?]>; want: Array<[string, number]> }>([
    { name: 'first goes out at once', steps: [['a', 1, 0]], want: [['a', 1]] },
    {
      name: 'within 100 ms held',
      steps: [
        ['a', 1, 0],
        ['a', 2, 50],
      ],
      want: [['a', 1]],
    },
    {
      name: 'after 100 ms goes out',
      steps: [
        ['a', 1, 0],
        ['a', 2, 100],
      ],
      want: [
        ['a', 1],
        ['a', 2],
      ],
    },
    {
      name: 'keys are independent',
      steps: [
        ['a', 1, 0],
        ['b', 1, 10],
      ],
      want: [
        ['a', 1],
        ['b', 1],
      ],
    },
    {
      name: 'force bypasses',
      steps: [
        ['a', 1, 0],
        ['a', 9, 10, true],
      ],
      want: [
        ['a', 1],
        ['a', 9],
      ],
    },
  ])('$name', ({ steps, want }) => {
    const c = new ProgressCoalescer<number>(100);
    const out: Array<[string, number]> = [];
    for (const [k, v, now, force] of steps) {
      const e = c.offer(k, v, now, force);
      if (e !== undefined) out.push([k, e]);
    }
    expect(out).toEqual(want);
  });

  it('flush releases the newest held value when due', () => {
    const c = new ProgressCoalescer<number>(100);
    c.offer('a', 1, 0);
    c.offer('a', 2, 30);
    c.offer('a', 3, 60);
    expect(c.nextFlushAt()).toBe(100);
    expect(c.flush(99)).toEqual([]);
    expect(c.flush(100)).toEqual([['a', 3]]);
    expect(c.flush(500)).toEqual([]);
    expect(c.nextFlushAt()).toBeUndefined();
  });

  it('a forced update drops held progress so nothing stale follows it', () => {
    const c = new ProgressCoalescer<string>(100);
    c.offer('a', 'p1', 0);
    c.offer('a', 'p2', 10);
    c.offer('a', 'done', 20, true);
    expect(c.flush(1000)).toEqual([]);
  });

  it('1000 offers over 1 s emit at most 10 + 1', () => {
    const c = new ProgressCoalescer<number>();
    let n = 0;
    for (let t = 0; t < 1000; t++) {
      if (c.offer('a', t, t) !== undefined) n++;
      n += c.flush(t).length;
    }
    expect(n).toBeLessThanOrEqual(11);
    c.drop('a');
    expect(c.size).toBe(0);
  });

  it('event union is discriminated by type', () => {
    const e: EngineEvent = { type: 'queue:paused', reason: 'credentials', message: 'x' };
    expect(e.type).toBe('queue:paused');
  });
});
