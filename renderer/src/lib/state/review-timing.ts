// Where the playhead is in a transcript. Called on every animation frame while the media plays, so
// each lookup is a binary search over the (sorted) words or paragraphs, never a scan.
import type { TranscriptParagraphView, TranscriptWordView } from '../../../../preload/contract.js';

/** The last index whose key is at or below `value`; -1 when even the first is above it. */
function lastAtOrBelow(count: number, keyAt: (i: number) => number, value: number): number {
  let lo = 0;
  let hi = count - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (keyAt(mid) <= value) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * The word being spoken at `ms`: the last word that has started by then. In a pause the word just
 * said stays lit, so the highlight does not flicker between words; before the first word: -1.
 */
export function wordIndexAt(words: readonly TranscriptWordView[], ms: number): number {
  return lastAtOrBelow(words.length, (i) => words[i]!.start, ms);
}

/** The paragraph holding word `word`; -1 when there is none. */
export function paragraphIndexOfWord(paragraphs: readonly TranscriptParagraphView[], word: number): number {
  if (word < 0) return -1;
  const i = lastAtOrBelow(paragraphs.length, (p) => paragraphs[p]!.first, word);
  return i >= 0 && word < paragraphs[i]!.end ? i : -1;
}

/** The paragraph playing at `ms` (the first one before it starts); -1 for an empty transcript. */
export function paragraphIndexAt(paragraphs: readonly TranscriptParagraphView[], ms: number): number {
  if (paragraphs.length === 0) return -1;
  return Math.max(
    0,
    lastAtOrBelow(paragraphs.length, (p) => paragraphs[p]!.startMs, ms),
  );
}

/** Words [from, to) of a selection made from either end, kept inside the paragraph it starts in. */
export function selectedRange(
  paragraphs: readonly TranscriptParagraphView[],
  anchor: number,
  focus: number,
): { from: number; to: number } | null {
  if (anchor < 0 || focus < 0) return null;
  const from = Math.min(anchor, focus);
  const last = Math.max(anchor, focus);
  const p = paragraphs[paragraphIndexOfWord(paragraphs, from)];
  if (!p) return null;
  return { from, to: Math.min(last + 1, p.end) };
}
