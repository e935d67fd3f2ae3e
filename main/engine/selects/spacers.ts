// The rows of a string-out that are not bites: a gap (silence and black for a length) or a title
// card (a gap holding a line of text, for the editor to set as a title). A list keeps its selects
// as it always did and its spacers beside them, each placed after the select it follows (null: at
// the list's start), so a list without spacers is the file it always was and an older Sluice
// reading a newer list still finds every select. The edits see one sequence of rows (rowsOf) and
// give one back (withRows), which places each spacer anew. Pure.
import { z } from 'zod';
import { SELECT_LIMITS } from '../../../common/edit-limits.js';
import { SPACER_LIMITS } from '../../../common/string-out-formats.js';
import type { Select, SelectList } from './selects.js';

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

/** A row of the list as the screen and the timeline see it: a select, or a spacer (its `after` unused). */
export type Row = Select | Spacer;

export const isSpacer = (r: Row): r is Spacer => 'kind' in r;

/** The list's rows in order: each select followed by the spacers placed after it. */
export function rowsOf(list: SelectList): Row[] {
  const spacers = list.spacers ?? [];
  if (spacers.length === 0) return [...list.selects];
  const ids = new Set(list.selects.map((s) => s.id));
  const after = (id: string | null): Spacer[] => spacers.filter((g) => g.after === id);
  const rows: Row[] = [...after(null)];
  for (const s of list.selects) rows.push(s, ...after(s.id));
  // A spacer whose select is gone (removed by a Sluice that knew no spacers) stays, at the end.
  rows.push(...spacers.filter((g) => g.after !== null && !ids.has(g.after)));
  return rows;
}

/** The list holding `rows` in their order (revision bumped); no `spacers` field when there are none. */
export function withRows(list: SelectList, rows: readonly Row[]): SelectList {
  const selects: Select[] = [];
  const spacers: Spacer[] = [];
  let last: string | null = null;
  for (const r of rows) {
    if (isSpacer(r)) spacers.push({ ...r, after: last });
    else {
      selects.push(r);
      last = r.id;
    }
  }
  const { spacers: _old, ...rest } = list;
  return { ...rest, revision: list.revision + 1, selects, ...(spacers.length > 0 ? { spacers } : {}) };
}

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

/** Rows a list may hold in all: the selects' limit (an EDL's events) is also the rows'. */
export const MAX_ROWS = SELECT_LIMITS.selects;
