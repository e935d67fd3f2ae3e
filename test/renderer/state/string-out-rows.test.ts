// The string-out screen's rows: bites numbered among themselves, gaps and title cards at their
// places among all the rows, as main's view gives them.
import { describe, expect, it } from 'vitest';
import type { SelectView, SpacerView } from '../../../preload/contract';
import { rowsOfView, secondsText } from '../../../renderer/src/lib/state/string-out-rows';

const sel = (id: string): SelectView =>
  ({
    id,
    jobId: 'j',
    fileName: 'a.mov',
    label: id,
    colour: 'Green',
    note: '',
    text: id,
    fromMs: 0,
    toMs: 1,
    durationMs: 1,
  }) as SelectView;
const sp = (id: string, index: number): SpacerView => ({
  id,
  kind: 'gap',
  ms: 2000,
  durationMs: 2000,
  recordInMs: 0,
  index,
});

describe('the string-out rows', () => {
  it('interleaves spacers at their indexes, numbering only the bites', () => {
    const rows = rowsOfView({
      selects: [sel('a'), sel('b'), sel('c')],
      spacers: [sp('g2', 4), sp('g0', 0), sp('g1', 2)],
    });
    expect(rows.map((r) => r.id)).toEqual(['g0', 'a', 'g1', 'b', 'g2', 'c']);
    expect(rows.flatMap((r) => (r.kind === 'select' ? [r.number] : []))).toEqual([1, 2, 3]);
  });

  it('keeps a list without spacers as it was, and spacers past the bites at the end', () => {
    expect(rowsOfView({ selects: [sel('a'), sel('b')] }).map((r) => r.id)).toEqual(['a', 'b']);
    expect(rowsOfView({ selects: [sel('a')], spacers: [sp('g', 7)] }).map((r) => r.id)).toEqual(['a', 'g']);
    expect(secondsText(2000)).toBe('2 s');
    expect(secondsText(1500)).toBe('1.5 s');
  });
});
