import { describe, expect, it } from 'vitest';
import { HOLD_TICK_MS, HoldTimer, holdLeftText, type HoldClock } from '../../renderer/src/lib/state/hold-timer.js';

/** A clock moved by hand: `advance` runs every timeout that falls due, in order. */
function fakeClock(): HoldClock & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let seq = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout: (fn, ms) => {
      due.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (h) => void due.delete(h as number),
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = [...due.entries()].sort((a, b) => a[1].at - b[1].at)[0];
        if (!next || next[1].at > end) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = end;
    },
    pending: () => due.size,
  };
}

describe('HoldTimer', () => {
  it('counts the time left down and is done at the hold’s end, not before', () => {
    const clock = fakeClock();
    const timer = new HoldTimer(clock);
    const left: number[] = [];
    let done = 0;
    timer.start(
      480,
      (ms) => left.push(ms),
      () => done++,
    );
    expect(left).toEqual([480]);
    expect(timer.running).toBe(true);
    clock.advance(479);
    expect(done).toBe(0);
    expect(left).toEqual([480, 380, 280, 180, 80]);
    clock.advance(1);
    expect(done).toBe(1);
    expect(left.at(-1)).toBe(0);
    expect(timer.running).toBe(false);
    expect(clock.pending()).toBe(0);
  });

  it('ticks every HOLD_TICK_MS', () => {
    const clock = fakeClock();
    const left: number[] = [];
    new HoldTimer(clock).start(
      3000,
      (ms) => left.push(ms),
      () => undefined,
    );
    clock.advance(1000);
    expect(left).toHaveLength(1 + 1000 / HOLD_TICK_MS);
  });

  it('stopped (Space, Esc, the player gone), it calls nothing more and leaves no timeout behind', () => {
    const clock = fakeClock();
    const timer = new HoldTimer(clock);
    let calls = 0;
    timer.start(
      2000,
      () => calls++,
      () => calls++,
    );
    timer.stop();
    const before = calls;
    expect(clock.pending()).toBe(0);
    clock.advance(5000);
    expect(calls).toBe(before);
  });

  it('a new hold ends the last one: consecutive holds, each its own length', () => {
    const clock = fakeClock();
    const timer = new HoldTimer(clock);
    const ends: string[] = [];
    timer.start(
      1000,
      () => undefined,
      () => ends.push('first'),
    );
    clock.advance(400);
    timer.start(
      300,
      () => undefined,
      () => ends.push('second'),
    );
    clock.advance(300);
    expect(ends).toEqual(['second']);
    clock.advance(2000);
    expect(ends).toEqual(['second']);
  });
});

describe('holdLeftText', () => {
  it.each([
    [3000, '3.0 s'],
    [2401, '2.5 s'],
    [2400, '2.4 s'],
    [1, '0.1 s'],
    [0, '0.0 s'],
  ])('%i ms → %s', (ms, text) => expect(holdLeftText(ms)).toBe(text));
});
