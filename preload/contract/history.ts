// History's entries, its query and its page.
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings.
import type { PlainErrorView, ResultFileView } from './queue.js';
import type { JobState, Params, ResultFormat, StreamState } from './shared.js';
import type { TranscriptMatchView } from './transcripts.js';

export interface HistoryEntry {
  /** `job:<id>` or `stream:<streamId>`; stable across pages. */
  key: string;
  /** 'external': a stream started elsewhere (another machine, the API), known only to the service. */
  origin: 'local' | 'external';
  jobId?: string;
  streamId?: string;
  /** The source file name, or the stream's name for an external stream. */
  fileName: string;
  /** Where the file is now (after a rename or a move, its current path). */
  sourcePath?: string;
  /** The paths the file had before its current one (renamed or moved after it was processed), oldest first. */
  earlierPaths?: string[];
  folderId?: string;
  template: { id: string; name: string };
  /** Local job state; external streams map READY→processing, COMPLETED→completed, FAILED→failed, EXPIRED→expired. */
  state: JobState;
  streamState?: StreamState;
  createdAt: number;
  completedAt?: number;
  totalBytes?: number;
  results: ResultFileView[];
  /** The recipe the job ran with ("Podcast episode"), known from its parameters. */
  recipe?: string;
  /** What the recipe's answers left out, one sentence each (chapters or quotes not found in the transcript…). */
  recipeNotes?: string[];
  error?: string;
  plainError?: PlainErrorView;
  noSpeech?: boolean;
  /** A local job's result formats and template parameters, what a re-export starts from. */
  formats?: ResultFormat[];
  params?: Params;
  /** The computer that processed it, for a file of a folder shared with other computers (team mode). */
  processedBy?: string;
  canCancelStream: boolean;
  canRerun: boolean;
  canReexport: boolean;
  /** What became of an earlier run's review work when this run's results were written. */
  reviewNote?: string;
  /** Set when the search words were found inside the transcript: the line and the moment to open it at. */
  match?: TranscriptMatchView;
}

/** The review work in a job's transcript, by kind. */
export interface ReviewWorkView {
  /** Places where the words or their speaker were changed. */
  corrections: number;
  speakerNames: number;
  markers: number;
  /** Chapters and pull quotes renamed, moved, added or removed. */
  chapters: number;
  quotes: number;
  /** "5 corrections, 1 speaker name and 1 marker"; empty when there is none. */
  words: string;
}

/** 'computer': the computer that processed a shared folder's file (those of no shared folder first, ascending). */
export type HistorySortKey = 'created' | 'completed' | 'name' | 'state' | 'size' | 'computer';

export interface HistoryQuery {
  /** Case-insensitive substring of the file name, or words of the transcript (any order, accents ignored). */
  search?: string;
  states?: JobState[];
  templateIds?: string[];
  /** Watch-folder ids; 'manual' for files added by hand. */
  folderIds?: string[];
  /** Computers that processed the file (team mode), by name, letter case ignored; the service's own streams never match. */
  computers?: string[];
  /** Epoch milliseconds, on the creation time. */
  from?: number;
  to?: number;
  sort?: { by: HistorySortKey; dir: 'asc' | 'desc' };
  /** Zero-based. */
  page?: number;
  /** At most 500. */
  pageSize?: number;
  /** Merge the service's stream list (cached briefly). Default true. */
  includeExternal?: boolean;
  /** Read the service's stream list again instead of the briefly cached copy (screen opened, Refresh). */
  refresh?: boolean;
}

export interface HistoryPage {
  entries: HistoryEntry[];
  total: number;
  page: number;
  pageSize: number;
  /** Every computer named in History as having processed a file (whatever the filter), sorted. */
  computers: string[];
  external: { included: boolean; fetchedAt?: number; count?: number; problem?: string };
}
