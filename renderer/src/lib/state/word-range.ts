// Words selected with the keyboard in the review (Shift+arrows): an anchor, where the selection
// began, and a moving end, both word indexes of the whole transcript. Held as indexes, not DOM
// nodes: the transcript list draws only the paragraphs near the view, so either end may be a word
// that is not drawn. Pure: the review carries the result out (the highlight, B, Enter, copy).

/** The selection: `anchor` stays where it began, `focus` moves a word (or to a paragraph's end) a key. */
export interface WordRange {
  anchor: number;
  focus: number;
}

/** How a key moves the moving end: a word back or on, or to the start or the end of its paragraph. */
export type WordStep = 'back' | 'forward' | 'home' | 'end';

/** A paragraph's words: `first` to `end` (exclusive), as the transcript view gives them. */
interface Paragraph {
  first: number;
  end: number;
}

const clamp = (i: number, count: number): number => Math.max(0, Math.min(count - 1, i));

/** The paragraph holding word `w`, by bisection (paragraphs are in order and cover every word). */
function paragraphOf(paragraphs: readonly Paragraph[], w: number): Paragraph | undefined {
  let lo = 0;
  let hi = paragraphs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = paragraphs[mid]!;
    if (w < p.first) hi = mid - 1;
    else if (w >= p.end) lo = mid + 1;
    else return p;
  }
  return undefined;
}

/**
 * The selection after one key. With none yet, it begins at the `current` word (the spoken one) and
 * takes its first step from there: Shift+→ three times from word 10 selects 10 to 13. Walking back
 * past the anchor shrinks it first, then grows it the other way. Home and End go to the first and
 * last word of the moving end's paragraph, and from there to the previous one's start or the next
 * one's end. Clamped to the transcript; null when it has no words.
 */
export function extendWords(
  range: WordRange | null,
  step: WordStep,
  current: number,
  count: number,
  paragraphs: readonly Paragraph[] = [],
): WordRange | null {
  if (count <= 0) return null;
  const anchor = range ? clamp(range.anchor, count) : clamp(current, count);
  const focus = range ? clamp(range.focus, count) : anchor;
  if (step === 'back' || step === 'forward') {
    return { anchor, focus: clamp(focus + (step === 'back' ? -1 : 1), count) };
  }
  const p = paragraphOf(paragraphs, focus);
  if (!p) return { anchor, focus: step === 'home' ? 0 : count - 1 };
  if (step === 'home') {
    const before = focus === p.first ? paragraphOf(paragraphs, focus - 1) : p;
    return { anchor, focus: before ? before.first : 0 };
  }
  const after = focus === p.end - 1 ? paragraphOf(paragraphs, focus + 1) : p;
  return { anchor, focus: clamp(after ? after.end - 1 : count - 1, count) };
}

/** The words a selection covers: `from` to `to` (exclusive), as B, Enter and copy take them. */
export function wordsOf(range: WordRange): { from: number; to: number } {
  return { from: Math.min(range.anchor, range.focus), to: Math.max(range.anchor, range.focus) + 1 };
}

/** What a screen reader is told: "4 words selected: “we start with the”". */
export function describeWords(words: ReadonlyArray<{ text: string }>, range: WordRange, shown = 8): string {
  const { from, to } = wordsOf(range);
  const n = to - from;
  const texts = words.slice(from, Math.min(to, from + shown)).map((w) => w.text);
  const quote = `“${texts.join(' ')}${n > shown ? '…' : ''}”`;
  return `${n} word${n === 1 ? '' : 's'} selected: ${quote}.`;
}
