// How Sluice compares words people type with words it holds: case and accents do not matter
// ("Straßen", "STRASSEN" and "strassen" are one word; "Café" is "cafe"; composed and decomposed
// letters are one). History's search, the transcript index and the review's find all fold by it.

/** NFKD, combining marks dropped, lower case, ß as ss. */
export function foldText(s: string): string {
  // Printable ASCII only needs its case folded: no marks to drop, nothing to decompose (most file names).
  if (/^[\x20-\x7e]*$/.test(s)) return s.toLowerCase();
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss');
}
