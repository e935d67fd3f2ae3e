// History's filter, once: which jobs a question about the history keeps (states, templates, watch
// folders, the computers that processed them, a date range, words of the name). The app's History
// (runtime/history.ts) and `sluice history` (adapters/store/history/history-read.ts) both ask it:
// `historyQueryOf` is the filter in the shape History's SQL index answers, `historyMatcher` the
// same filter over the few jobs read here (the journal's, the service's streams). Pure.
import type { JobState } from './job.js';
import { computerKey } from './shared-folder.js';
import { foldText, nameMatcher, searchTokens, searchable } from './transcript/search-text.js';

/** What is asked of the history; every list empty or missing means no filter on it. */
export interface HistoryFilterFields {
  /** Words of the file name (or of the computer that processed it), in any order, case and accents ignored. */
  search?: string;
  states?: readonly JobState[];
  templateIds?: readonly string[];
  /** Watch folder ids, 'manual' for files added by hand. */
  folderIds?: readonly string[];
  /** Computers that processed the file (team mode), letter case ignored. */
  computers?: readonly string[];
  /** Created at or after, ms. */
  from?: number;
  /** Created at or before, ms. */
  to?: number;
}

/** The filter as History's index takes it: the search folded into its words and its whole text. */
export interface IndexFilter {
  states?: readonly string[];
  templateIds?: readonly string[];
  folderIds?: readonly string[];
  computers?: readonly string[];
  from?: number;
  to?: number;
  /** Folded words that must all be in the folded name (or computer); or, with no words, `whole` as typed, folded. */
  search?: { terms: readonly string[]; whole: string };
}

/** A search as typed, in the shape the index answers. */
export const indexSearch = (typed: string): { terms: string[]; whole: string } => ({
  terms: searchTokens(typed),
  whole: foldText(typed).trim(),
});

/** The filter for History's index. An empty search is no search. */
export function historyQueryOf(f: HistoryFilterFields): IndexFilter {
  return {
    ...(f.states?.length ? { states: f.states } : {}),
    ...(f.templateIds?.length ? { templateIds: f.templateIds } : {}),
    ...(f.folderIds?.length ? { folderIds: f.folderIds } : {}),
    ...(f.computers?.length ? { computers: f.computers } : {}),
    ...(f.from !== undefined ? { from: f.from } : {}),
    ...(f.to !== undefined ? { to: f.to } : {}),
    ...(f.search ? { search: indexSearch(f.search) } : {}),
  };
}

/** What the filter looks at in a job (or a stream started elsewhere, which has no folder). */
export interface FilterRow {
  name: string;
  /** The computer that processed a shared folder's file. */
  host?: string;
  state: string;
  templateId: string;
  created: number;
  /** The watch folder's id, or 'manual'; absent for a stream started elsewhere. */
  folder?: string;
}

/**
 * The filter as a test of one row, its search folded once rather than per row. `fold` may cache
 * the folding of names (History folds the same names query after query). `byName: false` leaves
 * the name out: a job found by its transcript passes on the rest alone.
 */
export function historyMatcher(
  f: HistoryFilterFields,
  fold: (name: string) => string = foldText,
): (r: FilterRow, opts?: { byName: boolean }) => boolean {
  const named = f.search ? nameMatcher(f.search, fold) : undefined;
  const computers = f.computers?.length ? new Set(f.computers.map(computerKey)) : undefined;
  return (r, opts) =>
    (!named || opts?.byName === false || named(searchable(r.name, r.host))) &&
    (!f.states?.length || f.states.includes(r.state as JobState)) &&
    (!f.templateIds?.length || f.templateIds.includes(r.templateId)) &&
    (!f.folderIds?.length || (r.folder !== undefined && f.folderIds.includes(r.folder))) &&
    (!computers || computers.has(computerKey(r.host ?? ''))) &&
    (f.from === undefined || r.created >= f.from) &&
    (f.to === undefined || r.created <= f.to);
}
