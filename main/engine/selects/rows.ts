// A list's rows in order, bites and spacers as one sequence: what the edits change, the timeline
// places and the screen shows. The edits see the rows (rowsOf) and give them back (withRows), which
// places each spacer after the select before it anew. Pure.
import { SELECT_LIMITS } from '../../../common/edit-limits.js';
import type { Select, SelectList } from './selects.js';
import type { Spacer } from './spacers.js';

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

/** Rows a list may hold in all: the selects' limit (an EDL's events) is also the rows'. */
export const MAX_ROWS = SELECT_LIMITS.selects;
