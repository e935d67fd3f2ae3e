// A glossary: names and terms the transcript must spell right ("MoveFlow", not "mooflow"), sent as
// `enhancedTranscription` + `etVocabulary` (§11.2: a comma-separated list). Pure. Typed in
// Settings or read from a text or CSV file, one term per line (a CSV's first column).
import { quoteRefused } from '../printable.js';

/** Terms go comma-separated, so a term holds no comma; the service's limits are unpublished. */
export const GLOSSARY_LIMITS = { terms: 500, termLength: 100 } as const;

/** C0 and C1 controls and DEL: never part of a name or term (a binary file read as text). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A CSV's header row names its column; these names are not terms. */
const HEADERS = new Set(['term', 'terms', 'name', 'names', 'word', 'words', 'glossary', 'vocabulary']);

/** The terms of a text or CSV file: one per line, the first column, quotes and blanks dropped, each once. */
export function parseGlossary(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const head = lines[0] ?? '';
  if (
    /[,;\t]/.test(head) &&
    HEADERS.has(
      head
        .split(/[,;\t]/)[0]!
        .replace(/"/g, '')
        .trim()
        .toLowerCase(),
    )
  )
    lines.shift();
  for (const line of lines) {
    const first = line.startsWith('"')
      ? (/^"((?:[^"]|"")*)"/.exec(line)?.[1] ?? '').replace(/""/g, '"')
      : line.split(/[,;\t]/)[0]!;
    const term = first.replace(/,/g, ' ').replace(/\s+/g, ' ').trim();
    if (term === '' || term.startsWith('#') || seen.has(term.toLowerCase())) continue;
    seen.add(term.toLowerCase());
    out.push(term);
  }
  return out;
}

/** Why a glossary cannot be sent as it is, one sentence each; empty when it can. */
export function glossaryProblems(terms: readonly string[]): string[] {
  const problems: string[] = [];
  if (terms.length > GLOSSARY_LIMITS.terms) {
    problems.push(`The glossary has ${terms.length} terms; keep it to ${GLOSSARY_LIMITS.terms} of the most important.`);
  }
  // Each refused term is quoted escaped: a binary file's terms hold control bytes (ESC among them).
  for (const t of terms) {
    if (t.includes(',')) {
      problems.push(`${quoteRefused(t)}: a glossary term cannot hold a comma (terms are sent comma-separated).`);
    } else if (t.trim().length === 0 || t.length > GLOSSARY_LIMITS.termLength) {
      problems.push(`${quoteRefused(t)}: a glossary term has 1 to ${GLOSSARY_LIMITS.termLength} characters.`);
    } else if (CONTROL.test(t)) {
      problems.push(
        `${quoteRefused(t)}: a glossary term is text; this one holds control characters (is the file binary?).`,
      );
    }
  }
  return problems;
}

/**
 * The parameters a glossary adds: enhancement on, and the terms joined with any vocabulary the
 * parameters already give (each term once). Nothing when the glossary is empty.
 */
export function glossaryParams(
  existing: string | undefined,
  terms: readonly string[],
): Record<string, string | boolean> {
  if (terms.length === 0) return {};
  const before = (existing ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const seen = new Set(before.map((t) => t.toLowerCase()));
  const all = [...before, ...terms.filter((t) => !seen.has(t.toLowerCase()))];
  return { enhancedTranscription: true, etVocabulary: all.join(', ') };
}

/** The terms a job sent (its `etVocabulary`, the glossary's and any typed as a parameter): whose spelling wins. */
export function sentGlossary(params: Readonly<Record<string, unknown>>): string[] {
  const v = params.etVocabulary;
  return typeof v === 'string'
    ? v
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    : [];
}
