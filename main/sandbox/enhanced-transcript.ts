// The enhanced transcription (§11.2 [S], C18): the transcript again, with every run of words that
// sounds like a term of `etVocabulary` spelt as the vocabulary spells it, as the service's
// enhancement model does with domain terms. "Sounds like" is the sandbox's choice: the same letters
// once accents, case, spaces and punctuation are set aside ("move flow" and "Jurgen" are heard as
// "MoveFlow" and "Jürgen"), over at most four words. The words keep their times: a term heard as
// two words becomes one word from the first one's start to the last one's end.
import type { Word } from '../service/types.js';

const MAX_RUN = 4;

const letters = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toLowerCase();

/** The terms of a comma-separated vocabulary, longest first (a longer term wins over its part). */
function termsOf(vocabulary: string): Array<{ key: string; parts: string[] }> {
  return vocabulary
    .split(',')
    .map((t) => t.replace(/\s+/g, ' ').trim())
    .filter((t) => letters(t) !== '')
    .map((t) => ({ key: letters(t), parts: t.split(' ') }))
    .sort((a, b) => b.key.length - a.key.length);
}

const leading = (w: string): string => /^[\s\p{P}\p{S}]*/u.exec(w)?.[0] ?? '';
const trailing = (w: string): string => /[\p{P}\p{S}]*$/u.exec(w)?.[0] ?? '';

/** `words` with the vocabulary's terms respelt; new word objects, the input untouched. */
export function enhancedWords(words: readonly Word[], vocabulary: string): Word[] {
  const terms = termsOf(vocabulary);
  const bump = (w: Word): Word => ({ ...w, confidence: Math.min(0.999, (w.confidence ?? 0.9) + 0.01) });
  const out: Word[] = [];
  for (let i = 0; i < words.length;) {
    let matched: { n: number; parts: string[] } | undefined;
    for (const term of terms) {
      let key = '';
      for (let n = 1; n <= MAX_RUN && i + n <= words.length; n++) {
        key += letters(words[i + n - 1]!.word);
        if (key === term.key) matched = { n, parts: term.parts };
        if (matched || !term.key.startsWith(key)) break;
      }
      if (matched) break;
    }
    if (!matched) {
      out.push(bump(words[i]!));
      i += 1;
      continue;
    }
    const run = words.slice(i, i + matched.n);
    if (run.length === matched.parts.length) {
      // As many words as the term has: each word takes its part.
      run.forEach((w, k) => out.push(bump({ ...w, word: `${leading(w.word)}${matched.parts[k]}${trailing(w.word)}` })));
    } else {
      const first = run[0]!;
      const last = run[run.length - 1]!;
      out.push(
        bump({
          ...first,
          word: `${leading(first.word)}${matched.parts.join(' ')}${trailing(last.word)}`,
          end: last.end,
        }),
      );
    }
    i += matched.n;
  }
  return out;
}
