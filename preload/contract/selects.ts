// Selects and string-outs: sound bites picked in the review into named lists, the list screen, and
// a list sent to the editor's timeline (the same lists and export as `sluice selects`).
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings and common/.
import type { StringOutFormat } from '../../common/string-out-formats.js';
import type { MarkerColourView, TranscriptMediaView } from './transcripts.js';

export { SELECT_WIDENINGS, type SelectSource, type SelectWidening } from '../../common/select-sources.js';
export { STRING_OUT_FORMATS, STRING_OUT_FORMAT_LABELS, type StringOutFormat } from '../../common/string-out-formats.js';

/** The list the review adds to until another is chosen. */
export const DEFAULT_SELECTS_LIST = 'Selects';

export interface SelectView {
  id: string;
  jobId: string;
  /** The clip's file name as it is now (or as last known when it is missing). */
  fileName: string;
  label: string;
  colour: MarkerColourView;
  note: string;
  /** The words as they read now (as they were picked, when the clip is missing). */
  text: string;
  speaker?: string;
  /** The words' own times, ms from the media's start. */
  fromMs: number;
  toMs: number;
  /** The words of the clip's current transcript it holds, [first, end): what the review highlights. */
  words?: [number, number];
  /** Source timecode of the clip at the words' in and out (frames of the clip's own timecode). */
  sourceIn?: string;
  sourceOut?: string;
  /** On the timeline: its length (handles aside) and where it starts, ms from the timeline's start. */
  durationMs: number;
  recordInMs?: number;
  /** Why the select cannot be placed now (its media moved, its transcript gone); the export leaves it out. */
  missing?: string;
}

/** A gap or a title card between bites (nothing plays there; a title card's text is for the editor). */
export interface SpacerView {
  id: string;
  kind: 'gap' | 'title';
  /** A title card's text. */
  text?: string;
  /** Its length as asked, and on the timeline (whole frames of its rate), ms. */
  ms: number;
  durationMs: number;
  /** Where it starts, ms from the timeline's start. */
  recordInMs: number;
  /** Its place among all the rows (bites and spacers), 0 first: what `move` and `restore` count. */
  index: number;
}

export interface SelectListView {
  name: string;
  revision: number;
  selects: SelectView[];
  /** Gaps and title cards; absent or empty when there are none. */
  spacers?: SpacerView[];
  /** The running total: every placed bite and spacer back to back. */
  totalMs: number;
  /** The timeline's rate, as the export would choose it (e.g. "25", "29.97 DF"). */
  rate: string;
  /** What the screen's player loads for each placed clip, by job id (the review's media URL). */
  media?: Record<string, TranscriptMediaView>;
}

/** `selects:addFrom`'s answer: the list, and the select just added (named by a toast, removed by its Undo). */
export interface SelectAddedView {
  list: SelectListView;
  added: SelectView;
}

export interface SelectListSummary {
  name: string;
  count: number;
}

export type SelectEdit =
  | { kind: 'remove'; id: string }
  /** Undo of a remove: the select as `selects:edit` answered it before, back at `index`. */
  | { kind: 'restore'; id: string; index: number }
  | { kind: 'move'; id: string; index: number }
  /** `words` > 0 widens that end by as many words, < 0 takes as many off (one word stays). */
  | { kind: 'trim'; id: string; end: 'in' | 'out'; words: number }
  /** Empty: back to the first words. */
  | { kind: 'relabel'; id: string; label: string }
  | { kind: 'recolour'; id: string; colour: MarkerColourView }
  | { kind: 'renote'; id: string; note: string }
  /** A gap after row `after` (a bite or spacer's id; absent: at the end). `move`/`restore` indexes count every row. */
  | { kind: 'addGap'; ms: number; after?: string }
  | { kind: 'addTitle'; text: string; ms: number; after?: string }
  /** A gap's or title card's length (its text is `relabel`'s). */
  | { kind: 'respace'; id: string; ms: number };

export interface SelectsExportParams {
  list: string;
  formats: StringOutFormat[];
  /** The folder to write into; absent: beside the list's first clip. */
  folder?: string;
  /** `HH:MM:SS:FF`; default 01:00:00:00. */
  timecode?: string;
  handles?: number;
}

export interface SelectsExportView {
  folder: string;
  files: string[];
  bites: number;
  /** Selects left out and why, in words. */
  missing: string[];
  /** What the export chose where a format could not follow a bite exactly. */
  notes: string[];
}

export interface SelectsChangedView {
  list: string;
  revision: number;
}
