// The rows of a string-out that are not bites: a gap (silence and black for a length) or a title
// card (a gap holding a line of text, for the editor to set as a title). A list keeps its selects
// as it always did and its spacers beside them, each placed after the select it follows (null: at
// the list's start), so a list without spacers is the file it always was and an older Sluice
// reading a newer list still finds every select. The edits see one sequence of rows (rowsOf) and
// give one back (withRows), which places each spacer anew. Pure.
import { z } from 'zod';
import { SPACER_LIMITS } from '../../../common/string-out-formats.js';

export { SPACER_LIMITS };

export type SpacerKind = 'gap' | 'title';

export interface Spacer {
  id: string;
  kind: SpacerKind;
  /** Its length on the timeline, ms (placed on the timeline's frames, at least one). */
  ms: number;
  /** A title card's text; a gap has none. */
  text?: string;
  /** The id of the select it follows; null: before the first. */
  after: string | null;
}

export const SPACER = z
  .object({
    id: z.string().min(1).max(64),
    kind: z.enum(['gap', 'title']),
    ms: z.number().int().min(SPACER_LIMITS.minMs).max(SPACER_LIMITS.maxMs),
    text: z
      .string()
      .max(SPACER_LIMITS.text * 4)
      .optional(),
    after: z.string().min(1).max(64).nullable(),
  })
  .refine((s) => s.kind === 'gap' || (s.text ?? '').trim() !== '', 'a title card has text');

/** A spacer's length from seconds as typed: whole ms within the limits, or a SelectError-ready message. */
export function spacerLengthProblem(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < SPACER_LIMITS.minMs || ms > SPACER_LIMITS.maxMs) {
    return `A gap or title card lasts from ${SPACER_LIMITS.minMs / 1000} to ${SPACER_LIMITS.maxMs / 1000} seconds.`;
  }
  return null;
}

export function titleTextProblem(text: string): string | null {
  const t = text.replace(/\s+/gu, ' ').trim();
  if (t === '') return 'A title card needs its text, such as "Part two: the budget".';
  if (Array.from(t).length > SPACER_LIMITS.text)
    return `A title card's text has at most ${SPACER_LIMITS.text} characters.`;
  return null;
}
