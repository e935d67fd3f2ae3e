// A search snippet cut into plain and highlighted parts, from the hit ranges main found (the
// words that hold a searched term, folded as the search folds them). Pure.
export interface SnippetPart {
  text: string;
  hit: boolean;
}

export function snippetParts(text: string, hits: ReadonlyArray<readonly [number, number]> = []): SnippetPart[] {
  const out: SnippetPart[] = [];
  let at = 0;
  for (const [start, end] of [...hits].sort((a, b) => a[0] - b[0])) {
    if (start < at || end <= start || end > text.length) continue;
    if (start > at) out.push({ text: text.slice(at, start), hit: false });
    out.push({ text: text.slice(start, end), hit: true });
    at = end;
  }
  if (at < text.length) out.push({ text: text.slice(at), hit: false });
  return out;
}

/**
 * The same, with the text before the first hit cut to its last `lead` characters (from a word's
 * start, after "…"), so a narrow row shows the highlighted word rather than the line's start.
 */
export function leadingToHit(parts: SnippetPart[], lead = 24): SnippetPart[] {
  const [first, ...rest] = parts;
  if (!first || first.hit || rest.length === 0 || first.text.length <= lead) return parts;
  const tail = first.text.slice(-lead);
  const space = tail.indexOf(' ');
  return [{ text: `…${space >= 0 ? tail.slice(space) : tail}`, hit: false }, ...rest];
}
