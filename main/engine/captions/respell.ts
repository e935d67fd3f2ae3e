// The enhanced transcription's spellings (§6.3, §11.2 [S]) carried into the words every format
// reads. The service spells the glossary's terms right only in `enhancedTranscription`; the plain
// words are spelt as heard ("move flow", "Jurgen"). Pure.
//
// Note (which words): when the enhanced transcription comes back with timed words, they are the
// words (the plain ones lend a speaker, channel or language a word lacks). When it comes back as
// text alone, its spellings are carried onto the plain words by aligning the two: a word spelt
// another way, two words heard as one ("move flow" → "MoveFlow") or one as two, each keeping the
// plain words' times and punctuation; a word only one side has is left as the plain words have it.
// Either way a term of the glossary wins over both: words whose letters are the term's (accents,
// case, spaces and punctuation aside) are spelt as the glossary spells it.
import type { Word } from '../../service/types.js';

/** How far ahead the alignment looks for the two sides to agree again after they part. */
const WINDOW = 16;
/** The most words one side may hold for a single word of the other ("move flow" is two). */
const MAX_RUN = 4;
/** Above this share of letters changed, two words are different words, not two spellings. */
const MAX_CHANGE = 0.5;

/** Words already read: speech repeats its words, and hours of it are read several times per result. */
const lettersOf = new Map<string, string>();

/** A word's letters and digits, without accents or case: what two spellings of it share. */
export function letters(s: string): string {
  let out = lettersOf.get(s);
  if (out === undefined) {
    out = s
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\p{L}\p{N}]/gu, '')
      .toLowerCase();
    if (lettersOf.size >= 50_000) lettersOf.clear();
    lettersOf.set(s, out);
  }
  return out;
}

const MARK = /[\p{P}\p{S}]/u;
const leading = (w: string): string => /^[\s\p{P}\p{S}]*/u.exec(w)?.[0] ?? '';
/** The punctuation a word ends with (a loop: an end-anchored pattern is tried at every position). */
function trailing(w: string): string {
  const chars = [...w];
  let k = chars.length;
  while (k > 0 && MARK.test(chars[k - 1]!)) k--;
  return chars.slice(k).join('');
}
/** The word as spelt: without surrounding spaces and punctuation. */
const core = (w: string): string => w.slice(leading(w).length, w.length - trailing(w).length || undefined);

/** One step of an alignment: `a` words [a0, a1) of the first side stand for `b` words [b0, b1) of the second. */
export interface Step {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

function distance(x: string, y: string): number {
  if (x === y) return 0;
  const row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    let diag = row[0]!;
    row[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const up = row[j]!;
      row[j] = Math.min(up + 1, row[j - 1]! + 1, diag + (x[i - 1] === y[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[y.length]!;
}

/** Share of letters changed between two keys; Infinity when they are not two spellings of one word. */
function change(x: string, y: string): number {
  if (x === '' || y === '') return Infinity;
  const c = distance(x, y) / Math.max(x.length, y.length);
  return c <= MAX_CHANGE ? c : Infinity;
}

/** The best pairing of two short runs that disagree (a small edit-distance table). */
function alignHunk(a: readonly string[], b: readonly string[], a0: number, b0: number): Step[] {
  const p = a.length;
  const q = b.length;
  if (p === 0 || q === 0) return [];
  const cost: number[][] = Array.from({ length: p + 1 }, () => new Array<number>(q + 1).fill(Infinity));
  const from: Array<Array<[number, number] | null>> = Array.from({ length: p + 1 }, () =>
    new Array<[number, number] | null>(q + 1).fill(null),
  );
  cost[0]![0] = 0;
  const relax = (i: number, j: number, ni: number, nj: number, c: number) => {
    const total = cost[i]![j]! + c;
    if (total < cost[ni]![nj]!) {
      cost[ni]![nj] = total;
      from[ni]![nj] = [i, j];
    }
  };
  for (let i = 0; i <= p; i++) {
    for (let j = 0; j <= q; j++) {
      if (cost[i]![j] === Infinity) continue;
      if (i < p) relax(i, j, i + 1, j, 1);
      if (j < q) relax(i, j, i, j + 1, 1);
      for (let k = 1; k <= MAX_RUN && i + k <= p; k++) {
        for (let l = 1; l <= MAX_RUN && j + l <= q; l++) {
          if (k > 1 && l > 1) break;
          const c = change(a.slice(i, i + k).join(''), b.slice(j, j + l).join(''));
          if (c !== Infinity) relax(i, j, i + k, j + l, c + (k + l - 2) * 0.01);
        }
      }
    }
  }
  const steps: Step[] = [];
  for (let i = p, j = q; i > 0 || j > 0;) {
    const [pi, pj] = from[i]![j]!;
    if (i - pi > 0 && j - pj > 0) steps.push({ a0: a0 + pi, a1: a0 + i, b0: b0 + pj, b1: b0 + j });
    [i, j] = [pi, pj];
  }
  return steps.reverse();
}

/**
 * Which words of `a` stand for which of `b` (both as `letters` keys), in order. Runs of equal words
 * pair one to one; where the sides part, the next point where two words in a row agree again is
 * sought within WINDOW words, and the run between is paired by spelling. Near-linear: hours of
 * transcript that mostly agree align in one pass.
 */
export function alignWords(a: readonly string[], b: readonly string[]): Step[] {
  const steps: Step[] = [];
  const agree = (i: number, j: number) =>
    a[i] !== '' && a[i] === b[j] && (i + 1 >= a.length || j + 1 >= b.length || a[i + 1] === b[j + 1]);
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] !== '' && a[i] === b[j]) {
      steps.push({ a0: i, a1: i + 1, b0: j, b1: j + 1 });
      i += 1;
      j += 1;
      continue;
    }
    let next: [number, number] | undefined;
    for (let d = 1; d <= 2 * WINDOW && !next; d++) {
      for (let di = Math.max(0, d - WINDOW); di <= Math.min(d, WINDOW); di++) {
        const dj = d - di;
        if (i + di < a.length && j + dj < b.length && agree(i + di, j + dj)) {
          next = [i + di, j + dj];
          break;
        }
      }
    }
    const [ni, nj] = next ?? [Math.min(a.length, i + WINDOW), Math.min(b.length, j + WINDOW)];
    steps.push(...alignHunk(a.slice(i, ni), b.slice(j, nj), i, j));
    [i, j] = [ni, nj];
  }
  if (i < a.length && j < b.length) steps.push(...alignHunk(a.slice(i), b.slice(j), i, j));
  return steps;
}

const withText = (w: Word, word: string): Word => ({ ...w, word });

/**
 * The plain words spelt as the enhanced text spells them (see the note at the top): each keeps
 * its times and its punctuation; a word the text holds as two is split in time by its letters.
 */
export function carrySpellings(plain: readonly Word[], enhancedText: string): Word[] {
  const tokens = enhancedText.split(/\s+/).filter((t) => t !== '');
  const steps = alignWords(
    plain.map((w) => letters(w.word)),
    tokens.map((t) => letters(t)),
  );
  const out: Word[] = [];
  let at = 0;
  for (const s of steps) {
    out.push(...plain.slice(at, s.a0));
    const first = plain[s.a0]!;
    const last = plain[s.a1 - 1]!;
    const spelt = tokens.slice(s.b0, s.b1).map(core);
    if (spelt.length === 1) {
      out.push({ ...first, word: `${leading(first.word)}${spelt[0]}${trailing(last.word)}`, end: last.end });
    } else {
      // One plain word heard as several: its time shared by their letters.
      const total = spelt.reduce((n, t) => n + Math.max(1, letters(t).length), 0);
      let start = first.start;
      spelt.forEach((t, k) => {
        const share = Math.max(1, letters(t).length) / total;
        const end = k === spelt.length - 1 ? first.end : start + (first.end - first.start) * share;
        const lead = k === 0 ? leading(first.word) : ' ';
        const trail = k === spelt.length - 1 ? trailing(first.word) : '';
        out.push({ ...first, word: `${lead}${t}${trail}`, start, end });
        start = end;
      });
    }
    at = s.a1;
  }
  out.push(...plain.slice(at));
  return out;
}

/**
 * The enhanced words, each lacking a speaker, channel or language given the plain word it stands
 * for (the enhanced section may carry the words alone).
 */
export function withPlainDetails(enhanced: readonly Word[], plain: readonly Word[]): Word[] {
  const steps = alignWords(
    enhanced.map((w) => letters(w.word)),
    plain.map((w) => letters(w.word)),
  );
  const partner = new Map<number, Word>();
  for (const s of steps) for (let i = s.a0; i < s.a1; i++) partner.set(i, plain[s.b0]!);
  let previous: Word | undefined;
  return enhanced.map((w, i) => {
    const p = partner.get(i) ?? previous;
    previous = p;
    if (!p) return w;
    return {
      ...w,
      ...(w.speakers === undefined && p.speakers !== undefined ? { speakers: p.speakers } : {}),
      ...(w.speakersOverlap === undefined && p.speakersOverlap !== undefined
        ? { speakersOverlap: p.speakersOverlap }
        : {}),
      ...(w.channel === undefined && p.channel !== undefined ? { channel: p.channel } : {}),
      ...(w.language === undefined && p.language !== undefined ? { language: p.language } : {}),
      ...(w.metadata === undefined && p.metadata !== undefined ? { metadata: p.metadata } : {}),
    };
  });
}

/**
 * `words` with every run of them whose letters are a glossary term's spelt as the term: a run of
 * as many words as the term has takes one part each, any other run becomes one word.
 */
export function applyGlossary(words: readonly Word[], glossary: readonly string[]): Word[] {
  const terms = new Map<string, string[]>();
  for (const t of glossary) {
    const term = t.replace(/\s+/g, ' ').trim();
    const key = letters(term);
    if (key !== '' && !terms.has(key)) terms.set(key, term.split(' '));
  }
  if (terms.size === 0) return [...words];
  const keys = words.map((w) => letters(w.word));
  const out: Word[] = [];
  for (let i = 0; i < words.length;) {
    // The longest run of words that is a term (a longer term wins over its part).
    let hit: { n: number; parts: string[] } | undefined;
    let key = '';
    for (let n = 1; n <= MAX_RUN && i + n <= words.length; n++) {
      key += keys[i + n - 1];
      const parts = terms.get(key);
      if (parts) hit = { n, parts };
    }
    if (!hit) {
      out.push(words[i]!);
      i += 1;
      continue;
    }
    const { n, parts } = hit;
    const run = words.slice(i, i + n);
    if (run.length === parts.length) {
      run.forEach((w, k) => out.push(withText(w, `${leading(w.word)}${parts[k]}${trailing(w.word)}`)));
    } else {
      const first = run[0]!;
      const last = run[run.length - 1]!;
      out.push({ ...first, word: `${leading(first.word)}${parts.join(' ')}${trailing(last.word)}`, end: last.end });
    }
    i += n;
  }
  return out;
}

/** How many of `words` are spelt otherwise than the plain words they stand for. */
export function respelledCount(plain: readonly Word[], words: readonly Word[]): number {
  const steps = alignWords(
    plain.map((w) => letters(w.word)),
    words.map((w) => letters(w.word)),
  );
  let n = 0;
  for (const s of steps) {
    const before = plain
      .slice(s.a0, s.a1)
      .map((w) => core(w.word))
      .join(' ');
    const after = words
      .slice(s.b0, s.b1)
      .map((w) => core(w.word))
      .join(' ');
    if (before !== after) n += s.b1 - s.b0;
  }
  return n;
}
