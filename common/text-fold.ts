// How Sluice compares words people type with words it holds: case and accents do not matter
// ("Straßen", "STRASSEN" and "strassen" are one word; "Café" is "cafe"), composed and decomposed
// letters are one, and compatibility forms are their plain letters (full-width "ＡＢＣ", "™", "ℍ",
// mathematical "𝐀" are "abc", "tm", "h", "a"). History's search, the transcript index and the
// review's find all fold by it.
// Note: the indexes that keep folded text (adapters/store/history-index.ts, transcript-postings.ts)
// carry a schema number; a change here that folds any text differently bumps both, so they rebuild.

/** NFKD first, then lower case (a compatibility form may decompose to capitals), marks dropped, ß as ss. */
export function foldText(s: string): string {
  // Printable ASCII only needs its case folded: no marks to drop, nothing to decompose (most file names).
  if (/^[\x20-\x7e]*$/.test(s)) return s.toLowerCase();
  return s
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss');
}
