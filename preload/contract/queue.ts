// The Queue screen's views: jobs, results, the batch and what adding files answers.
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings and common/.
import type { LinkDestination, LinkDestinationChoice } from '../../common/link-destination.js';
import type {
  GatewayState,
  JobState,
  Params,
  ProcessorState,
  QueuePauseReason,
  ResultFormat,
  StreamState,
} from './shared.js';

// ---- jobs and the queue -------------------------------------------------------------------------

export type JobOriginView = { kind: 'manual' } | { kind: 'watch'; folderId: string };

export interface ResultFileView {
  format: ResultFormat;
  path: string;
  fileName: string;
  /** Written under a fallback name because a file Sluice did not write held the usual one. */
  collided: boolean;
  /**
   * With `collided`: the file that holds the usual name, when it has exactly that name (a caption
   * file changed by hand outside Sluice); 'transcript:overwriteHeld' writes over it on request.
   */
  heldBy?: string;
  /** An editor format (FCPXML, EDL, …): the start timecode and rate it was written at. */
  timeline?: TimelineUsedView;
}

export interface TimelineUsedView {
  /** `01:00:00:00`, `00:59:50;00` in drop-frame. */
  start: string;
  /** `23.976`, `25`, `29.97 DF`. */
  rate: string;
  /** tmcd/mxf/sidecar/bext: the media's own; fixed: the folder's start; none: the media had none (zero). */
  origin: 'tmcd' | 'mxf' | 'sidecar' | 'bext' | 'fixed' | 'none';
}

export interface JobView {
  id: string;
  fileName: string;
  /** Folder holding the source file. */
  folder: string;
  sourcePath: string;
  origin: JobOriginView;
  state: JobState;
  streamId?: string;
  template: { id: string; name: string };
  params: Params;
  uploadedBytes: number;
  totalBytes: number;
  /** Current upload speed; 0 when not uploading. */
  bytesPerSecond: number;
  /** Epoch milliseconds. */
  timings: { created: number; started?: number; uploaded?: number; finalized?: number; completed?: number };
  stream?: {
    state: StreamState;
    stateDescription: string | null;
    gateway?: GatewayState;
    processors: Array<{ processorId: string; state: ProcessorState; stateDescription: string | null }>;
  };
  error?: { message: string; processorId?: string; internalErrorName?: string; stateDescription?: string };
  /** The error in plain words, and what to do next; the raw `error` stays for a details disclosure. */
  plainError?: PlainErrorView;
  /** Completed, but the media holds no speech: only the JSON was written (no empty captions). */
  noSpeech?: boolean;
  /** Waiting to try again at this time (backoff). */
  nextAttemptAt?: number;
  /** That wait is the service asking for fewer requests (429), not a failure of the file. */
  rateLimited?: boolean;
  stuck: boolean;
  results: ResultFileView[];
  /** The recipe the job ran with ("Podcast episode"), known from its parameters. */
  recipe?: string;
  /** What the recipe's answers left out, one sentence each (chapters or quotes not found in the transcript…). */
  recipeNotes?: string[];
  resultWarning?: string;
  /** What became of an earlier run's review work when this run's results were written. */
  reviewNote?: string;
  movedTo?: string;
  /** Where the file was before its renames and moves, oldest first (its current path is `sourcePath`). */
  earlierPaths?: string[];
  dismissed: boolean;
  canRetry: boolean;
  canCancel: boolean;
  canRewrite: boolean;
  /** Still waiting: its place in the queue can change. */
  canMove: boolean;
  /** Finished: it can leave the Queue screen (it stays in the history). */
  canDismiss: boolean;
  /** The queue order, decided in main: sort by it, ascending (in flight, waiting, finished newest first). */
  position: number;
}

export interface PlainErrorView {
  summary: string;
  nextStep: string;
}

export interface PauseView {
  reason: QueuePauseReason;
  message: string;
  until?: number;
}

export interface BatchStats {
  /** Changes when a new batch starts (a job arriving after everything before it finished). */
  id: number;
  /** Jobs finished (any terminal state) since the queue was last empty: completed + failed + canceled. */
  done: number;
  completed: number;
  /** Failed or expired. */
  failed: number;
  canceled: number;
  total: number;
  /** When the batch's first job arrived, and when its last one finished (absent while running). */
  startedAt: number;
  finishedAt?: number;
  /** Bytes per second over the last minute of uploads; 0 when nothing is uploading. */
  throughput: number;
  /**
   * What is left: `eta` counts the uploads and the processing at the service's learned pace;
   * `paused` while the queue is paused; `unknown` until an upload rate is measured.
   */
  estimate: 'eta' | 'paused' | 'unknown' | 'done';
  /** Estimated milliseconds until the batch is done; present when `estimate` is `eta`. */
  etaMs?: number;
  /** Seconds of processing per second of media the estimate used, and whether it was learned. */
  pace: number;
  paceLearned: boolean;
}

export interface QueueStats {
  counts: Record<JobState, number>;
  batch: BatchStats;
  pause?: PauseView;
  offline: boolean;
  /** Paused by "stop after current" while jobs in flight finish. */
  stoppingAfterCurrent: boolean;
}

/** A file in a watch folder still being copied: not a job yet, shown so it is not invisible. */
export interface CopyingView {
  folderId: string;
  path: string;
  fileName: string;
  /** Its size now; it grows while the copy runs. */
  bytes: number;
  firstSeenAt: number;
  changedAt: number;
  /** "Waiting for the copy to finish". */
  status: string;
}

/** The files still being copied: how many, and the first few (oldest first) to show. */
export interface CopyingList {
  total: number;
  files: CopyingView[];
}

/**
 * Files of a shared watch folder that another computer is processing (team mode): not this
 * computer's jobs, shown so a file on the share is not invisible here. One per folder and computer.
 */
export interface ElsewhereView {
  folderId: string;
  /** The watch folder's path, to say which folder. */
  folderPath: string;
  /** The other computer's name, as it wrote it in its claim ("EDIT-BAY-2"). */
  host: string;
  /** How many of the folder's files it holds. */
  count: number;
  /** The first few of them (oldest sighting first); `count` says how many in all. */
  files: Array<{ path: string; fileName: string }>;
}

export interface QueueSnapshot extends QueueStats {
  /** Every job not dismissed, in queue order (active first, then finished, newest first). */
  jobs: JobView[];
  /** The first files still being copied into watch folders (they become jobs once the copy is over). */
  copying?: CopyingView[];
  /** How many are copying in all (more than `copying` lists on a card dump). */
  copyingTotal?: number;
  /** Files of shared folders that other computers are processing. */
  elsewhere?: ElsewhereView[];
  generatedAt: number;
}

export type AddOutcomeView =
  | { path: string; outcome: 'added' | 'already-queued' | 'already-done' | 'retried'; jobId: string }
  | { path: string; outcome: 'rejected'; message: string };

/** Where the Add-link dialog may put the links' results (common/link-destination.ts). */
export interface LinkDestinationsView {
  /** Downloads first, then each watch folder with an output folder, by name. */
  choices: Array<LinkDestinationChoice & { exists: boolean }>;
  /** The choice the dialog opens on: the one kept in Settings while it still stands for a folder. */
  initial: LinkDestination;
  /** The folder a typed choice kept in Settings names, for the dialog's field. */
  typed?: string;
}
