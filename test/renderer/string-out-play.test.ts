import { describe, expect, it } from 'vitest';
import type { SelectView, TranscriptMediaView } from '../../preload/contract.js';
import {
  advance,
  JOIN_MS,
  keepRun,
  playingBite,
  playKeyAction,
  playRun,
  stepAt,
  stringOutShortcuts,
  type PlayKey,
  type PlayRun,
} from '../../renderer/src/lib/state/string-out-play.js';

const sel = (id: string, jobId: string, fromMs: number, toMs: number, extra: Partial<SelectView> = {}): SelectView => ({
  id,
  jobId,
  fileName: `${jobId}.wav`,
  label: id,
  colour: 'Green',
  note: '',
  text: id,
  fromMs,
  toMs,
  durationMs: toMs - fromMs,
  ...extra,
});
const url = (jobId: string): string => `/media/${jobId}`;
const media: Record<string, TranscriptMediaView> = {
  a: { kind: 'audio', url: url('a'), mimeType: 'audio/wav' },
  b: { kind: 'video', url: url('b'), mimeType: 'video/webm' },
  gone: { kind: 'missing', message: 'moved' },
};
// A string-out across two clips: two bites of a that meet, one of b, one whose clip is gone, one of a again.
const list = [
  sel('a1', 'a', 1000, 2500),
  sel('a2', 'a', 2520, 4000),
  sel('b1', 'b', 500, 1500),
  sel('g1', 'gone', 0, 900),
  sel('a3', 'a', 8000, 9000),
];
const ids = (r: PlayRun | null): string[] => r?.bites.map((b) => b.id) ?? [];

describe('playRun', () => {
  it('plays one bite from its in to its out', () => {
    const r = playRun(list, media, 'one', 'b1');
    expect(r).toMatchObject({ index: 0, skipped: 0 });
    expect(r?.bites).toEqual([{ id: 'b1', jobId: 'b', inMs: 500, outMs: 1500, media: media.b }]);
  });

  it('plays every placed bite in list order, from the first or from a row on', () => {
    expect(ids(playRun(list, media, 'all'))).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(playRun(list, media, 'all')?.skipped).toBe(1);
    expect(ids(playRun(list, media, 'all', 'b1'))).toEqual(['b1', 'a3']);
  });

  it('has nothing to play for a bite whose clip is gone, missing, or not known', () => {
    expect(playRun(list, media, 'one', 'g1')).toBeNull();
    expect(playRun([sel('m', 'a', 0, 10, { missing: 'moved' })], media, 'one', 'm')).toBeNull();
    expect(playRun([sel('x', 'unknown', 0, 10)], media, 'all')).toBeNull();
    expect(playRun(list, media, 'one', 'no such id')).toBeNull();
    expect(playRun([], media, 'all')).toBeNull();
  });
});

describe('stepping through a run', () => {
  const run = playRun(list, media, 'all')!;

  it('goes on inside the bite, and while the player is still on another clip', () => {
    expect(stepAt(run, url('a'), 1000)).toEqual({ kind: 'go-on' });
    expect(stepAt(run, url('a'), 2499)).toEqual({ kind: 'go-on' });
    expect(stepAt(run, url('b'), 9999)).toEqual({ kind: 'go-on' });
  });

  it('plays on without a seek into a bite that starts where the last ended on the same clip', () => {
    const s = stepAt(run, url('a'), 2500);
    expect(s).toMatchObject({ kind: 'next', seek: false });
    expect(s.kind === 'next' && s.run.index).toBe(1);
    expect(2520 - 2500).toBeLessThanOrEqual(JOIN_MS);
  });

  it('crosses to another clip, and back, with a seek', () => {
    const second = { ...run, index: 1 };
    expect(stepAt(second, url('a'), 4010)).toMatchObject({ kind: 'next', seek: true, run: { index: 2 } });
    expect(advance({ ...run, index: 2 })).toMatchObject({ kind: 'next', seek: true, run: { index: 3 } });
  });

  it('seeks on the same clip when the next bite is elsewhere in it (later, or earlier)', () => {
    const later = playRun([sel('x', 'a', 0, 1000), sel('y', 'a', 1000 + JOIN_MS + 1, 3000)], media, 'all')!;
    expect(advance(later)).toMatchObject({ kind: 'next', seek: true });
    const earlier = playRun([sel('x', 'a', 5000, 6000), sel('y', 'a', 5990, 7000)], media, 'all')!;
    expect(advance(earlier)).toMatchObject({ kind: 'next', seek: true });
  });

  it('stops at the last bite’s out, and at one bite’s out', () => {
    expect(stepAt({ ...run, index: 3 }, url('a'), 9000)).toEqual({ kind: 'stop' });
    expect(stepAt(playRun(list, media, 'one', 'a1')!, url('a'), 2500)).toEqual({ kind: 'stop' });
  });
});

describe('playKeyAction', () => {
  const key = (k: string, extra: Partial<PlayKey> = {}): ReturnType<typeof playKeyAction> =>
    playKeyAction({
      key: k,
      shiftKey: false,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      typing: false,
      playing: false,
      ...extra,
    });

  it.each([
    [' ', {}, 'play'],
    [' ', { shiftKey: true }, 'playOn'],
    [' ', { playing: true }, 'stop'],
    [' ', { playing: true, shiftKey: true }, 'stop'],
    ['Escape', { playing: true }, 'stop'],
    ['Escape', {}, null],
    [' ', { typing: true }, null],
    [' ', { ctrlKey: true }, null],
    [' ', { altKey: true }, null],
    ['Enter', {}, null],
  ] as const)('%j with %j → %s', (k, extra, action) => {
    expect(key(k, extra)).toBe(action);
  });
});

describe('stringOutShortcuts', () => {
  it('lists every key playKeyAction answers to', () => {
    const listed = stringOutShortcuts().flatMap(([keys]) => keys);
    for (const k of ['Space', 'Shift', 'Space or Esc']) expect(listed).toContain(k);
  });
});

describe('keepRun: the list changes while the run plays', () => {
  const all = playRun(list, media, 'all')!; // a1, a2, b1, a3
  const at = (r: PlayRun, index: number): PlayRun => ({ ...r, index });
  const without = (...gone: string[]): SelectView[] => list.filter((s) => !gone.includes(s.id));

  it('moves on to the next bite, from its in, when the playing one is deleted', () => {
    const change = keepRun(at(all, 1), without('a2'), media);
    expect(change.kind).toBe('next');
    if (change.kind !== 'next') return;
    expect(ids(change.run)).toEqual(['a1', 'b1', 'a3']);
    expect(playingBite(change.run).id).toBe('b1');
    expect(change.seek).toBe(true);
  });

  it('stops when the playing bite was the last', () => {
    expect(keepRun(at(all, 3), without('a3'), media)).toEqual({ kind: 'stop' });
    expect(keepRun(playRun(list, media, 'one', 'b1')!, without('b1'), media)).toEqual({ kind: 'stop' });
  });

  it('keeps the playing bite when another is deleted, before or after it, the order intact', () => {
    const before = keepRun(at(all, 2), without('a1'), media);
    expect(before.kind).toBe('same');
    if (before.kind !== 'same') return;
    expect(ids(before.run)).toEqual(['a2', 'b1', 'a3']);
    expect(playingBite(before.run).id).toBe('b1');
    // …and the run goes on from there to the end, as it would have.
    expect(advance(before.run)).toMatchObject({ kind: 'next', run: { index: 2 } });
    expect(playingBite((advance(before.run) as { run: PlayRun }).run).id).toBe('a3');

    const after = keepRun(at(all, 1), without('a3'), media);
    expect(after.kind === 'same' && ids(after.run)).toEqual(['a1', 'a2', 'b1']);
    expect(after.kind === 'same' && playingBite(after.run).id).toBe('a2');
    expect(after.kind === 'same' && advance(at(after.run, 2))).toEqual({ kind: 'stop' });
  });

  it('moves past several deleted at once (the CLI), and keeps no bite whose clip went missing', () => {
    const change = keepRun(at(all, 0), without('a1', 'a2'), media);
    expect(change.kind === 'next' && ids(change.run)).toEqual(['b1', 'a3']);
    const gone = keepRun(
      at(all, 0),
      list.map((s) => (s.id === 'b1' ? { ...s, missing: 'moved' } : s)),
      media,
    );
    expect(gone.kind === 'same' && ids(gone.run)).toEqual(['a1', 'a2', 'a3']);
  });

  it('takes a trimmed bite’s new in and out', () => {
    const trimmed = list.map((s) => (s.id === 'a2' ? { ...s, fromMs: 3000, toMs: 3500 } : s));
    const change = keepRun(at(all, 0), trimmed, media);
    expect(change.kind === 'same' && change.run.bites[1]).toMatchObject({ id: 'a2', inMs: 3000, outMs: 3500 });
  });

  it('leaves an unchanged run as it was', () => {
    expect(keepRun(at(all, 2), list, media)).toEqual({ kind: 'same', run: at(all, 2) });
  });
});
