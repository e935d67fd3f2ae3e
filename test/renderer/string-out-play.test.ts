import { describe, expect, it } from 'vitest';
import type { SelectView, SpacerView, TranscriptMediaView } from '../../preload/contract.js';
import {
  advance,
  JOIN_MS,
  keepRun,
  playingStep,
  runBites,
  playKeyAction,
  playRun,
  stepAt,
  stringOutShortcuts,
  type PlayKey,
  type PlayList,
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
const ids = (r: PlayRun | null): string[] => r?.steps.map((b) => b.id) ?? [];
/** The list as the screen has it: its bites, gaps and title cards (each at its place among the rows), and media. */
const L = (selects: SelectView[], spacers: SpacerView[] = []): PlayList => ({ selects, spacers, media });

describe('playRun', () => {
  it('plays one bite from its in to its out', () => {
    const r = playRun(L(list), 'one', 'b1');
    expect(r).toMatchObject({ index: 0, skipped: 0 });
    expect(r?.steps).toEqual([{ kind: 'bite', id: 'b1', jobId: 'b', inMs: 500, outMs: 1500, media: media.b }]);
  });

  it('plays every placed bite in list order, from the first or from a row on', () => {
    expect(ids(playRun(L(list), 'all'))).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(playRun(L(list), 'all')?.skipped).toBe(1);
    expect(ids(playRun(L(list), 'all', 'b1'))).toEqual(['b1', 'a3']);
  });

  it('has nothing to play for a bite whose clip is gone, missing, or not known', () => {
    expect(playRun(L(list), 'one', 'g1')).toBeNull();
    expect(playRun(L([sel('m', 'a', 0, 10, { missing: 'moved' })]), 'one', 'm')).toBeNull();
    expect(playRun(L([sel('x', 'unknown', 0, 10)]), 'all')).toBeNull();
    expect(playRun(L(list), 'one', 'no such id')).toBeNull();
    expect(playRun(L([]), 'all')).toBeNull();
  });
});

describe('stepping through a run', () => {
  const run = playRun(L(list), 'all')!;

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
    const later = playRun(L([sel('x', 'a', 0, 1000), sel('y', 'a', 1000 + JOIN_MS + 1, 3000)]), 'all')!;
    expect(advance(later)).toMatchObject({ kind: 'next', seek: true });
    const earlier = playRun(L([sel('x', 'a', 5000, 6000), sel('y', 'a', 5990, 7000)]), 'all')!;
    expect(advance(earlier)).toMatchObject({ kind: 'next', seek: true });
  });

  it('stops at the last bite’s out, and at one bite’s out', () => {
    expect(stepAt({ ...run, index: 3 }, url('a'), 9000)).toEqual({ kind: 'stop' });
    expect(stepAt(playRun(L(list), 'one', 'a1')!, url('a'), 2500)).toEqual({ kind: 'stop' });
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
  const all = playRun(L(list), 'all')!; // a1, a2, b1, a3
  const at = (r: PlayRun, index: number): PlayRun => ({ ...r, index });
  const without = (...gone: string[]): SelectView[] => list.filter((s) => !gone.includes(s.id));

  it('moves on to the next bite, from its in, when the playing one is deleted', () => {
    const change = keepRun(at(all, 1), L(without('a2')));
    expect(change.kind).toBe('next');
    if (change.kind !== 'next') return;
    expect(ids(change.run)).toEqual(['a1', 'b1', 'a3']);
    expect(playingStep(change.run).id).toBe('b1');
    expect(change.seek).toBe(true);
  });

  it('stops when the playing bite was the last', () => {
    expect(keepRun(at(all, 3), L(without('a3')))).toEqual({ kind: 'stop' });
    expect(keepRun(playRun(L(list), 'one', 'b1')!, L(without('b1')))).toEqual({ kind: 'stop' });
  });

  it('keeps the playing bite when another is deleted, before or after it, the order intact', () => {
    const before = keepRun(at(all, 2), L(without('a1')));
    expect(before.kind).toBe('same');
    if (before.kind !== 'same') return;
    expect(ids(before.run)).toEqual(['a2', 'b1', 'a3']);
    expect(playingStep(before.run).id).toBe('b1');
    // …and the run goes on from there to the end, as it would have.
    expect(advance(before.run)).toMatchObject({ kind: 'next', run: { index: 2 } });
    expect(playingStep((advance(before.run) as { run: PlayRun }).run).id).toBe('a3');

    const after = keepRun(at(all, 1), L(without('a3')));
    expect(after.kind === 'same' && ids(after.run)).toEqual(['a1', 'a2', 'b1']);
    expect(after.kind === 'same' && playingStep(after.run).id).toBe('a2');
    expect(after.kind === 'same' && advance(at(after.run, 2))).toEqual({ kind: 'stop' });
  });

  it('moves past several deleted at once (the CLI), and keeps no bite whose clip went missing', () => {
    const change = keepRun(at(all, 0), L(without('a1', 'a2')));
    expect(change.kind === 'next' && ids(change.run)).toEqual(['b1', 'a3']);
    const gone = keepRun(at(all, 0), L(list.map((s) => (s.id === 'b1' ? { ...s, missing: 'moved' } : s))));
    expect(gone.kind === 'same' && ids(gone.run)).toEqual(['a1', 'a2', 'a3']);
  });

  it('takes a trimmed bite’s new in and out', () => {
    const trimmed = list.map((s) => (s.id === 'a2' ? { ...s, fromMs: 3000, toMs: 3500 } : s));
    const change = keepRun(at(all, 0), L(trimmed));
    expect(change.kind === 'same' && change.run.steps[1]).toMatchObject({ id: 'a2', inMs: 3000, outMs: 3500 });
  });

  it('leaves an unchanged run as it was', () => {
    expect(keepRun(at(all, 2), L(list))).toEqual({ kind: 'same', run: at(all, 2) });
  });
});

describe('holds: gaps and title cards in a run', () => {
  /** A gap or title card at `index` among all the rows; `durationMs` its length on the timeline. */
  const spacer = (id: string, index: number, durationMs: number, text?: string): SpacerView => ({
    id,
    kind: text === undefined ? 'gap' : 'title',
    ...(text === undefined ? {} : { text }),
    ms: durationMs,
    durationMs,
    recordInMs: 0,
    index,
  });
  const bites = [sel('a1', 'a', 1000, 2500), sel('a2', 'a', 2520, 4000), sel('b1', 'b', 500, 1500)];
  // Rows: T0 title, a1, G1 gap, G2 gap, a2, b1, T1 title.
  const spacers = [
    spacer('T0', 0, 3000, 'Part one'),
    spacer('G1', 2, 2000),
    spacer('G2', 3, 480),
    spacer('T1', 6, 1000, 'The end'),
  ];
  const full = L(bites, spacers);
  const steps = (r: PlayRun | null): string[] =>
    r?.steps.map((s) => (s.kind === 'hold' ? `${s.id}:${s.ms}` : s.id)) ?? [];

  it('places each gap and title card where its row is, as a hold of its length on the timeline', () => {
    const run = playRun(full, 'all')!;
    expect(steps(run)).toEqual(['T0:3000', 'a1', 'G1:2000', 'G2:480', 'a2', 'b1', 'T1:1000']);
    expect(run.steps[0]).toEqual({ kind: 'hold', id: 'T0', spacer: 'title', text: 'Part one', ms: 3000 });
    expect(run.steps[2]).toEqual({ kind: 'hold', id: 'G1', spacer: 'gap', ms: 2000 });
    expect(runBites(run).map((b) => b.id)).toEqual(['a1', 'a2', 'b1']);
    expect(run.skipped).toBe(0);
    // The length as placed on the timeline (whole frames), not as typed.
    const framed = playRun(L(bites, [{ ...spacer('G', 1, 1000), ms: 1010 }]), 'all')!;
    expect(framed.steps[1]).toMatchObject({ kind: 'hold', ms: 1000 });
  });

  it('plays on from a gap or title card (its hold first), and from a bite after a hold (Shift+Space)', () => {
    expect(steps(playRun(full, 'all', 'G2'))).toEqual(['G2:480', 'a2', 'b1', 'T1:1000']);
    const fromA2 = playRun(full, 'all', 'a2')!;
    expect(steps(fromA2)).toEqual(['a2', 'b1', 'T1:1000']);
    expect(playingStep(fromA2)).toMatchObject({ kind: 'bite', id: 'a2', inMs: 2520 });
  });

  it('plays one bite alone, holds aside; a gap or title card alone, or holds with no bite, are no run', () => {
    expect(steps(playRun(full, 'one', 'a1'))).toEqual(['a1']);
    expect(playRun(full, 'one', 'G1')).toBeNull();
    expect(playRun(full, 'all', 'T1')).toBeNull();
    expect(playRun(L([], [spacer('G', 0, 2000)]), 'all')).toBeNull();
  });

  it('steps into a hold and out of it, consecutive holds one after another, the bite after with a seek', () => {
    const run = playRun(full, 'all')!;
    // The hold first: no playhead ends it (its timer does).
    expect(stepAt(run, url('a'), 99_999)).toEqual({ kind: 'go-on' });
    const a1 = advance(run);
    expect(a1).toMatchObject({ kind: 'next', seek: true, run: { index: 1 } });
    const g1 = stepAt((a1 as { run: PlayRun }).run, url('a'), 2500);
    expect(g1.kind === 'next' && playingStep(g1.run)).toMatchObject({ kind: 'hold', id: 'G1' });
    const g2 = advance((g1 as { run: PlayRun }).run);
    expect(g2.kind === 'next' && playingStep(g2.run)).toMatchObject({ kind: 'hold', id: 'G2', ms: 480 });
    // a2 would join a1 (20 ms on) without holds between; after them it is sought.
    const a2 = advance((g2 as { run: PlayRun }).run);
    expect(a2).toMatchObject({ kind: 'next', seek: true });
    expect(a2.kind === 'next' && playingStep(a2.run)).toMatchObject({ id: 'a2' });
  });

  it('ends on a hold last: the run stops at its end', () => {
    const last = { ...playRun(full, 'all')!, index: 6 };
    expect(playingStep(last)).toMatchObject({ kind: 'hold', id: 'T1' });
    expect(stepAt(last, url('b'), 1500)).toEqual({ kind: 'go-on' });
    expect(advance(last)).toEqual({ kind: 'stop' });
    const b1 = { ...last, index: 5 };
    expect(stepAt(b1, url('b'), 1500)).toMatchObject({ kind: 'next', run: { index: 6 } });
  });

  it('a hold deleted while it runs: the next step plays; deleted last, the run stops; deleted ahead, it leaves', () => {
    const run = playRun(full, 'all')!;
    const inG1 = { ...run, index: 2 };
    const gone = keepRun(
      inG1,
      L(
        bites,
        spacers.filter((s) => s.id !== 'G1'),
      ),
    );
    expect(gone.kind).toBe('next');
    expect(gone.kind === 'next' && steps(gone.run)).toEqual(['T0:3000', 'a1', 'G2:480', 'a2', 'b1', 'T1:1000']);
    expect(gone.kind === 'next' && playingStep(gone.run)).toMatchObject({ id: 'G2' });
    expect(keepRun({ ...run, index: 6 }, L(bites, spacers.slice(0, 3)))).toEqual({ kind: 'stop' });
    // A hold ahead deleted, another lengthened or retitled: the playing bite plays on.
    const edited = spacers
      .filter((s) => s.id !== 'G2')
      .map((s) => (s.id === 'T1' ? { ...s, text: 'Fin', durationMs: 1200 } : s));
    const ahead = keepRun({ ...run, index: 1 }, L(bites, edited));
    expect(ahead.kind).toBe('same');
    expect(ahead.kind === 'same' && steps(ahead.run)).toEqual(['T0:3000', 'a1', 'G1:2000', 'a2', 'b1', 'T1:1200']);
    expect(ahead.kind === 'same' && ahead.run.steps.at(-1)).toMatchObject({ text: 'Fin' });
    expect(ahead.kind === 'same' && playingStep(ahead.run)).toMatchObject({ id: 'a1' });
  });

  it('a bite deleted while a hold runs leaves the run, the hold holding on', () => {
    const inG2 = { ...playRun(full, 'all')!, index: 3 };
    const change = keepRun(
      inG2,
      L(
        bites.filter((s) => s.id !== 'a2'),
        spacers,
      ),
    );
    expect(change.kind === 'same' && steps(change.run)).toEqual([
      'T0:3000',
      'a1',
      'G1:2000',
      'G2:480',
      'b1',
      'T1:1000',
    ]);
    expect(change.kind === 'same' && playingStep(change.run)).toMatchObject({ id: 'G2' });
  });
});
