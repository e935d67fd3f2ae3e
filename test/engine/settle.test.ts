import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dueChecks,
  emptyTracker,
  forget,
  judgeSettled,
  observe,
  SettleSet,
  type FileStat,
  type SettleTracker,
} from '../../main/engine/settle.js';
import { layoutVouches, neverWholeWords } from '../../main/engine/container-whole.js';
import { kindOfLinuxType, slowToSettle } from '../../main/engine/file-system-kind.js';

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

describe('judgeSettled: what becomes of a file unchanged for the settle time', () => {
  const share = { slowVolume: true, networkSettleMs: 30_000 };
  const facts = { size: 1000, whole: true, vouched: true, unchangedMs: 2000 };

  it('an empty file is not taken (a copy stalled before its first byte), a cut container waits', () => {
    expect(judgeSettled({ ...facts, size: 0 })).toEqual({ kind: 'empty' });
    expect(judgeSettled({ ...facts, whole: false })).toEqual({ kind: 'wait' });
    expect(judgeSettled(facts)).toEqual({ kind: 'take' });
  });

  it('on a network drive, a file only time can vouch for waits the longer settle; a whole MP4 does not', () => {
    expect(judgeSettled(facts, share)).toEqual({ kind: 'take' });
    expect(judgeSettled({ ...facts, vouched: false }, share)).toEqual({ kind: 'wait' });
    expect(judgeSettled({ ...facts, vouched: false, unchangedMs: 29_999 }, share)).toEqual({ kind: 'wait' });
    expect(judgeSettled({ ...facts, vouched: false, unchangedMs: 30_000 }, share)).toEqual({ kind: 'take' });
    expect(judgeSettled({ ...facts, vouched: false })).toEqual({ kind: 'take' });
  });

  it("on a local drive the same wait counts the file's modification time: an old file goes at once, a fresh copy waits", () => {
    const local = { slowVolume: false, networkSettleMs: 30_000 };
    const mp3 = { ...facts, vouched: false };
    expect(judgeSettled({ ...mp3, mtimeAgeMs: 2_000 }, local)).toEqual({ kind: 'wait' });
    expect(judgeSettled({ ...mp3, mtimeAgeMs: 29_999 }, local)).toEqual({ kind: 'wait' });
    expect(judgeSettled({ ...mp3, mtimeAgeMs: 3_600_000 }, local)).toEqual({ kind: 'take' });
    // A modification time in the future (another clock) proves nothing: what was seen here counts.
    expect(judgeSettled({ ...mp3, mtimeAgeMs: -60_000, unchangedMs: 30_000 }, local)).toEqual({ kind: 'take' });
    // On a share the server's clock is not trusted: an old modification time does not shorten the wait.
    expect(judgeSettled({ ...mp3, mtimeAgeMs: 3_600_000 }, share)).toEqual({ kind: 'wait' });
    // A container that vouches for itself never waits for time.
    expect(judgeSettled({ ...facts, mtimeAgeMs: 0 }, local)).toEqual({ kind: 'take' });
  });

  it('which layouts vouch for themselves, and which drives are slow to settle', () => {
    expect(layoutVouches({ kind: 'other' })).toBe(false);
    expect(layoutVouches({ kind: 'riff', fileSize: 10, declaredSize: null })).toBe(false);
    expect(layoutVouches({ kind: 'riff', fileSize: 10, declaredSize: 2 })).toBe(true);
    expect(layoutVouches({ kind: 'mxf', fileSize: 10, footerAt: null, footerThere: null })).toBe(false);
    expect(layoutVouches({ kind: 'isobmff', fileSize: 10, boxes: [] })).toBe(true);
    expect(slowToSettle(kindOfLinuxType(0x6969))).toBe(true); // NFS
    expect(slowToSettle(kindOfLinuxType(0x65735546))).toBe(true); // FUSE: sshfs, a card reader's exFAT driver
    expect(slowToSettle(kindOfLinuxType(0xef53))).toBe(false); // ext4
  });
});

describe('SettleSet', () => {
  /** The plain reading of what it promises: every waiting file not handed out since it was last observed, due when its wait is up. */
  class Model {
    readonly entries = new Map<string, { size: number; mtimeMs: number; since: number; out: boolean }>();
    constructor(private readonly settleMs: number) {}
    observe(p: string, st: FileStat, now: number): 'wait' | 'settled' {
      const e = this.entries.get(p);
      const same = e !== undefined && e.size === st.size && e.mtimeMs === st.mtimeMs;
      const since = same ? e.since : now;
      if (same && now - since >= this.settleMs) {
        this.entries.delete(p);
        return 'settled';
      }
      this.entries.set(p, { ...st, since, out: false });
      return 'wait';
    }
    due(now: number): string[] {
      const out = [...this.entries].filter(([, e]) => !e.out && now - e.since >= this.settleMs);
      for (const [, e] of out) e.out = true;
      return out.map(([p]) => p).sort();
    }
    next(): number | undefined {
      const s = [...this.entries.values()].filter((e) => !e.out).map((e) => e.since);
      return s.length === 0 ? undefined : Math.min(...s) + this.settleMs;
    }
  }

  const op = fc.oneof(
    fc.record({
      k: fc.constant('observe' as const),
      p: fc.integer({ min: 0, max: 6 }),
      size: fc.integer({ min: 0, max: 2 }),
      dt: fc.integer({ min: 0, max: 900 }),
    }),
    fc.record({ k: fc.constant('due' as const), dt: fc.integer({ min: 0, max: 900 }) }),
    fc.record({ k: fc.constant('forget' as const), p: fc.integer({ min: 0, max: 6 }) }),
    fc.record({ k: fc.constant('forgetOdd' as const) }),
    fc.record({ k: fc.constant('clear' as const) }),
  );

  it('hands out each due file once, in agreement with a plain scan of every waiting file', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const settleMs = 1000;
        const s = new SettleSet(settleMs);
        const m = new Model(settleMs);
        let now = 0;
        for (const o of ops) {
          if (o.k === 'observe') {
            now += o.dt;
            const st = { size: o.size, mtimeMs: 5 };
            expect(s.observe(`/f/${o.p}`, st, now).kind).toBe(m.observe(`/f/${o.p}`, st, now));
          } else if (o.k === 'due') {
            now += o.dt;
            expect([...s.due(now)].sort()).toEqual(m.due(now));
          } else if (o.k === 'forget') {
            s.forget(`/f/${o.p}`);
            m.entries.delete(`/f/${o.p}`);
          } else if (o.k === 'forgetOdd') {
            const odd = (p: string): boolean => Number(p.slice(3)) % 2 === 1;
            s.forgetWhere(odd);
            for (const p of [...m.entries.keys()]) if (odd(p)) m.entries.delete(p);
          } else {
            s.clear();
            m.entries.clear();
          }
          expect(s.nextCheckAt()).toBe(m.next());
          expect(s.size).toBe(m.entries.size);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a tick finds the due files of 100,000 waiting without handing out the others', () => {
    const s = new SettleSet(2000);
    for (let i = 0; i < 100_000; i++) s.observe(`/card/${i}.wav`, { size: 1, mtimeMs: 1 }, i);
    expect([...s.due(2000 + 9)]).toEqual(Array.from({ length: 10 }, (_, i) => `/card/${i}.wav`));
    expect(s.nextCheckAt()).toBe(2010);
    // A file seen changed starts a fresh wait; the one it replaced is never handed out.
    s.observe('/card/10.wav', { size: 2, mtimeMs: 1 }, 5000);
    expect([...s.due(2011)]).toEqual(['/card/11.wav']);
    expect(s.size).toBe(100_000);
  });
});

describe('neverWholeWords: how long a file has stayed as it is', () => {
  it('in minutes from a minute on, in seconds under one (a while set short in Settings)', () => {
    const said = (ms: number): string => neverWholeWords('GX010099.MP4', "no 'moov' box", ms);
    expect(said(180_000)).toMatch(/^unchanged for 3 min and not a complete MP4: no index \(moov\)/);
    expect(said(60_000)).toMatch(/^unchanged for 1 min /);
    expect(said(3_000)).toMatch(/^unchanged for 3 s /);
    expect(said(200)).toMatch(/^unchanged for 1 s /);
  });
});
