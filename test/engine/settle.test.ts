import { describe, expect, it } from 'vitest';
import {
  dueChecks,
  emptyTracker,
  forget,
  observe,
  type FileStat,
  type SettleTracker,
} from '../../main/engine/settle.js';

type Step = { at: number; stat: FileStat; want: 'wait' | 'settled'; checkAt?: number };

function play(steps: Step[], settleMs = 2000): void {
  let t: SettleTracker = emptyTracker();
  for (const s of steps) {
    const r = observe(t, '/in/a.mp4', s.stat, s.at, settleMs);
    t = r.tracker;
    expect(r.decision.kind, `at ${s.at}`).toBe(s.want);
    if (s.checkAt !== undefined && r.decision.kind === 'wait') expect(r.decision.checkAt).toBe(s.checkAt);
  }
}

describe('settle', () => {
  it.each<{ name: string; steps: Step[] }>([
    {
      name: 'stable for settleMs → settled',
      steps: [
        { at: 0, stat: { size: 10, mtimeMs: 1 }, want: 'wait', checkAt: 2000 },
        { at: 1999, stat: { size: 10, mtimeMs: 1 }, want: 'wait', checkAt: 2000 },
        { at: 2000, stat: { size: 10, mtimeMs: 1 }, want: 'settled' },
      ],
    },
    {
      name: 'growing file restarts the wait each time',
      steps: [
        { at: 0, stat: { size: 10, mtimeMs: 1 }, want: 'wait' },
        { at: 1500, stat: { size: 20, mtimeMs: 2 }, want: 'wait', checkAt: 3500 },
        { at: 3000, stat: { size: 20, mtimeMs: 2 }, want: 'wait' },
        { at: 3500, stat: { size: 20, mtimeMs: 2 }, want: 'settled' },
      ],
    },
    {
      name: 'pre-allocated full size with a moving mtime never passes',
      steps: Array.from({ length: 50 }, (_, i) => ({
        at: i * 1900,
        stat: { size: 1_000_000, mtimeMs: i },
        want: 'wait' as const,
      })),
    },
    {
      name: 'never gives up: settles after an hour of writes once it stops',
      steps: [
        ...Array.from({ length: 30 }, (_, i) => ({
          at: i * 120_000,
          stat: { size: i, mtimeMs: i },
          want: 'wait' as const,
        })),
        { at: 30 * 120_000, stat: { size: 29, mtimeMs: 29 }, want: 'settled' as const },
      ],
    },
    {
      name: 'a same-size rewrite (mtime only) restarts',
      steps: [
        { at: 0, stat: { size: 10, mtimeMs: 1 }, want: 'wait' },
        { at: 1900, stat: { size: 10, mtimeMs: 5 }, want: 'wait', checkAt: 3900 },
        { at: 3900, stat: { size: 10, mtimeMs: 5 }, want: 'settled' },
      ],
    },
  ])('$name', ({ steps }) => play(steps));

  it('is configurable, and settleMs = 0 takes at the second look', () => {
    play(
      [
        { at: 0, stat: { size: 1, mtimeMs: 1 }, want: 'wait' },
        { at: 0, stat: { size: 1, mtimeMs: 1 }, want: 'settled' },
      ],
      0,
    );
    play(
      [
        { at: 0, stat: { size: 1, mtimeMs: 1 }, want: 'wait', checkAt: 500 },
        { at: 500, stat: { size: 1, mtimeMs: 1 }, want: 'settled' },
      ],
      500,
    );
  });

  it('settled drops the entry; forget and dueChecks', () => {
    let t = observe(emptyTracker(), 'a', { size: 1, mtimeMs: 1 }, 0).tracker;
    t = observe(t, 'b', { size: 1, mtimeMs: 1 }, 1000).tracker;
    expect(dueChecks(t, 2000)).toEqual(['a']);
    expect(forget(t, 'a').has('a')).toBe(false);
    const settled = observe(t, 'a', { size: 1, mtimeMs: 1 }, 2000);
    expect(settled.tracker.has('a')).toBe(false);
    expect(t.has('a')).toBe(true); // pure: the input is untouched
  });
});
