// The persisted job (JobRecord), the failure shape the engine reasons about, and the events and
// effects of the job reducer. Types only, plus two small constructors; no I/O.
import type { ErrorClass, ServiceError, ServiceErrorKind } from '../service/errors.js';
import type { GatewayState, ProcessorState, StreamDto, StreamState } from '../service/types.js';
import type { FileIdentity } from './file-identity.js';
import type { MediaFacts } from './media-facts.js';
import type { OutputSettings, Params, ResultFormat } from './settings.js';
import type { SharedIdentity } from './shared-folder.js';
import type { JobState } from '../../common/job-states.js';

/** What a job's source is: a file on disk, or a media link the service fetches (media-link.ts). */
export type SourceKind = 'file' | 'link';

// The states and their groups are common/job-states.ts's (the contract and the renderer read them too).
export { ACTIVE_STATES, isTerminal, JOB_STATES, TERMINAL_STATES, type JobState } from '../../common/job-states.js';

export type JobOrigin = { kind: 'manual' } | { kind: 'watch'; folderId: string };

export interface JobError {
  class: ErrorClass | 'processing';
  message: string;
  internalErrorName?: string;
  processorId?: string;
  stateDescription?: string;
  statusCode?: number;
}

export interface ComponentSummary {
  gateway?: GatewayState;
  processors: Array<{ processorId: string; state: ProcessorState; stateDescription: string | null }>;
}

export interface ResultFile {
  format: ResultFormat;
  path: string;
  /** Always true for files a job records; kept explicit so ownership checks read the record alone. */
  writtenBySluice: boolean;
  /** Stamp right after writing: a file that still matches it is ours to overwrite. */
  size?: number;
  mtimeMs?: number;
  /** Written under the fallback name because a file Sluice did not write held the usual one. */
  collided?: boolean;
  /**
   * With `collided`: the file of the usual name, when that exact name holds it (a caption file the
   * editor changed by hand); the editor may have Sluice write over it instead (Results.overwriteHeld).
   */
  heldBy?: string;
  /** Written under a shortened name because the usual one is past the file system's limit. */
  shortened?: boolean;
  /**
   * On the JSON: its transcript holds no words (silent media), so no caption or text file was
   * written from it. Kept on the file record so every later write and move carries it along.
   */
  noSpeech?: boolean;
  /** On the JSON: what the recipe formats left out or did not write, and why (recipes/render.ts). */
  notes?: string[];
  /** On an editor format: where its timeline started, so the job's detail can be compared with the NLE. */
  timeline?: TimelineUsed;
}

/** The start and rate an editor format was written at (`01:00:00:00`, `23.976` / `29.97 DF`), and why. */
export interface TimelineUsed {
  start: string;
  rate: string;
  /** The media's timecode track, MXF component, camera sidecar or BWF stamp; the folder's fixed start; or nothing (zero). */
  origin: 'tmcd' | 'mxf' | 'sidecar' | 'bext' | 'fixed' | 'none';
}

export interface JobRecord {
  id: string;
  /** For a link (media-link.ts), `path` is the link and size its length in bytes: what is sent. */
  source: FileIdentity;
  /** Absent in journals written before links existed: a file. */
  sourceKind?: SourceKind;
  /**
   * Where the results are written: a link job's folder (chosen when it was created), or a watch
   * folder's output folder; absent for a file: beside its source.
   */
  resultsDir?: string;
  /** Below `resultsDir`, the folders the source sits in below its watch folder (mirrored there). */
  resultsBelow?: string;
  origin: JobOrigin;
  /** 0 = manual, 1 = watch; an explicit move may change it. Lower goes first. */
  priority: number;
  /** Arrival order within a priority; an explicit move swaps it with a neighbour. */
  seq: number;
  templateId: string;
  params: Params;
  /** Result formats and naming chosen when the job was created; a retry or rewrite reuses them. */
  output?: OutputSettings;
  state: JobState;
  /** Persisted before the first byte is sent (write before you act). */
  streamId?: string;
  /** Every stream Sluice started for this job and abandoned (partial upload, retry). */
  previousStreamIds: readonly string[];
  /**
   * The outcome of the last upload of `streamId` is unknown (crash, connection lost, 409): the
   * stream must be read by id before anything else (§15.2).
   */
  verifyStream: boolean;
  attempts: Readonly<{ upload: number; export: number }>;
  /** Consecutive failures of the current phase; drives backoff and is reset by any success. */
  failures: number;
  uploadedBytes: number;
  totalBytes: number;
  /** True only after the upload's 200: the only proof the whole file was accepted. */
  uploadConfirmed: boolean;
  stream?: { state: StreamState; stateDescription: string | null; components?: ComponentSummary };
  error?: JobError;
  createdAt: number;
  startedAt?: number;
  uploadedAt?: number;
  finalizedAt?: number;
  completedAt?: number;
  updatedAt: number;
  nextAttemptAt?: number;
  pollIntervalMs?: number;
  /** Media length when known; sets the stuck deadline. */
  mediaDurationMs?: number;
  /** What the media probe read of the source (timecode, rate); absent: the editor formats start at zero. */
  mediaFacts?: MediaFacts;
  stuckAt?: number;
  stuck: boolean;
  /** Export payload kept in the state dir until the results are written beside the source. */
  stagedResultPath?: string;
  results: readonly ResultFile[];
  resultWarning?: string;
  canceledByUser: boolean;
  /**
   * Where the file is now, when it moved after it was taken: a rename or move while logging, or
   * the watch folder's post-action (done/ or failed/). `currentPath` (source-path.ts) reads it.
   */
  movedTo?: string;
  /** The places the file had between `source.path` and `movedTo`, oldest first (History shows them). */
  movedFrom?: readonly string[];
  /** Removed from the Queue screen by the user; still in the history (and still known, so not re-taken). */
  dismissed?: boolean;
  /** A re-run of this earlier job: once these results are written, the ones it wrote that this run did not produce go. */
  replaces?: string;
  /**
   * The source changed after it was taken (a copy that stalled, then went on): the job waits,
   * queued, until the watch folder reports the finished file (reducer-source.ts).
   */
  awaitingCopy?: boolean;
  /**
   * From a watch folder shared with other computers (shared-folder.ts): its stream ids are derived
   * from this identity, so two computers that both take the file send the same id.
   */
  shared?: SharedIdentity;
  /** The last upload was refused with 409 (shared job): the stream under its id decides (onConflict). */
  sharedConflict?: boolean;
  /** The computer that took the job (its host name), so History says where a file was processed. */
  processedBy?: string;
  /** What became of an earlier run's review work when this run's results were written (review-carry.ts). */
  review?: ReviewNote;
}

/**
 * An earlier run of the clip held review work: it was carried onto this run's transcript, or this
 * run's results went beside that run's instead of over them. `note` says so in words.
 */
export interface ReviewNote {
  outcome: 'carried' | 'beside';
  /** The earlier job. */
  from: string;
  note: string;
}

/** A file job's results folder: both absent, beside the source. */
export interface ResultPlace {
  resultsDir?: string;
  resultsBelow?: string;
}

export interface NewJob {
  id: string;
  source: FileIdentity;
  sourceKind?: SourceKind;
  resultsDir?: string;
  resultsBelow?: string;
  origin: JobOrigin;
  seq: number;
  templateId: string;
  params: Params;
  output?: OutputSettings;
  mediaDurationMs?: number;
  /** What the media probe read of the source; kept so the editor formats start at its timecode. */
  mediaFacts?: MediaFacts;
  replaces?: string;
  shared?: SharedIdentity;
  processedBy?: string;
}

/**
 * What every new job starts with, shared rather than made per job: a watch folder of 100,000 files
 * held 300,000 of these empty values. Frozen, so a change made in place (instead of a new value,
 * as the reducer makes) fails loudly rather than reaching every job.
 */
const NO_STREAM_IDS: readonly string[] = Object.freeze([]);
const NO_RESULTS: readonly ResultFile[] = Object.freeze([]);
const NO_ATTEMPTS: JobRecord['attempts'] = Object.freeze({ upload: 0, export: 0 });

export function createJob(init: NewJob, now: number): JobRecord {
  return {
    id: init.id,
    source: init.source,
    ...(init.sourceKind === 'link' ? { sourceKind: 'link' as const } : {}),
    ...(init.resultsDir === undefined ? {} : { resultsDir: init.resultsDir }),
    ...(init.resultsBelow === undefined ? {} : { resultsBelow: init.resultsBelow }),
    origin: init.origin,
    priority: init.origin.kind === 'manual' ? 0 : 1,
    seq: init.seq,
    templateId: init.templateId,
    params: init.params,
    ...(init.output === undefined ? {} : { output: init.output }),
    state: 'queued',
    previousStreamIds: NO_STREAM_IDS,
    verifyStream: false,
    attempts: NO_ATTEMPTS,
    failures: 0,
    uploadedBytes: 0,
    totalBytes: init.source.size,
    uploadConfirmed: false,
    createdAt: now,
    updatedAt: now,
    ...(init.mediaDurationMs === undefined ? {} : { mediaDurationMs: init.mediaDurationMs }),
    ...(init.mediaFacts === undefined ? {} : { mediaFacts: init.mediaFacts }),
    ...(init.replaces === undefined ? {} : { replaces: init.replaces }),
    ...(init.shared === undefined ? {} : { shared: init.shared }),
    ...(init.processedBy === undefined ? {} : { processedBy: init.processedBy }),
    stuck: false,
    results: NO_RESULTS,
    canceledByUser: false,
  };
}

/** What the engine needs to know about a failed call; built from a ServiceError by `failureOf`. */
export interface Failure {
  class: ErrorClass;
  message: string;
  kind?: ServiceErrorKind;
  statusCode?: number;
  internalErrorName?: string;
  retryAfterMs?: number;
}

export function failureOf(e: ServiceError): Failure {
  const f: Failure = { class: e.errorClass, message: e.message, kind: e.kind };
  if (e.statusCode !== undefined) f.statusCode = e.statusCode;
  if (e.internalErrorName !== undefined) f.internalErrorName = e.internalErrorName;
  if (e.retryAfterMs !== undefined) f.retryAfterMs = e.retryAfterMs;
  return f;
}

export type StreamSnapshot = Pick<StreamDto, 'streamId' | 'state' | 'stateDescription' | 'finalizedTimestamp'> &
  Partial<Pick<StreamDto, 'createdTimestamp'>>;
export interface ComponentsSnapshot {
  gateway?: { state: GatewayState };
  processors: Array<{ processorId: string; state: ProcessorState; stateDescription: string | null }>;
}

export type JobEvent =
  /** The scheduler chose this job; the runtime minted an id in case the reducer needs a new one. */
  | { type: 'dispatched'; freshStreamId: string }
  | { type: 'uploadProgress'; uploadedBytes: number; totalBytes?: number }
  | { type: 'uploadSucceeded'; stream: StreamSnapshot }
  | { type: 'uploadFailed'; error: Failure }
  /** Answer to `checkStream`: the stream read by id (a 404 is `found: false`). */
  | { type: 'reattachResult'; found: false }
  /**
   * `ingressBytes`: bytes the service says it received for the stream (usage service), when it
   * could be read. Equal to the file size, it proves the whole file arrived even though the 200
   * was lost (a crash between the last byte and recording the answer).
   */
  | { type: 'reattachResult'; found: true; stream: StreamSnapshot; ingressBytes?: number }
  | { type: 'reattachFailed'; error: Failure }
  /** Answer to `cancelStream`: the stream as the cancel left it. */
  | { type: 'cancelAnswered'; stream: StreamSnapshot }
  | { type: 'cancelFailed'; error: Failure }
  | { type: 'streamPolled'; stream: StreamSnapshot; components?: ComponentsSnapshot }
  | { type: 'pollFailed'; error: Failure }
  | { type: 'componentsRead'; components: ComponentsSnapshot }
  | { type: 'componentsReadFailed'; error: Failure }
  /** `stagedPath` null = the export answered 204 (no data): reported, not saved. */
  | { type: 'exportSucceeded'; stagedPath: string | null }
  | { type: 'exportFailed'; error: Failure }
  | { type: 'resultsWritten'; results: readonly ResultFile[] }
  | { type: 'resultsWriteFailed'; message: string }
  | { type: 'cancelRequested' }
  /**
   * The user paused the queue: an upload in flight stops now (the line is freed at once), its
   * stream is canceled while READY (nothing processed, nothing billed) and the file queued again.
   */
  | { type: 'uploadInterrupted' }
  /**
   * Retry by hand. A shared folder's file comes with the claim this computer took again on the
   * share (its token and the attempt it was taken for): a retry never runs without one.
   */
  | { type: 'retryRequested'; claim?: { token: string; attempt: number } }
  | { type: 'expiredDetected' }
  /** The user moved the job: its new ordering keys (from the scheduler's `move`). */
  | { type: 'reordered'; priority: number; seq: number }
  /** Hide a finished job from the Queue screen. */
  | { type: 'dismissRequested' }
  /** Results written again (from the kept or a fresh export); `output` replaces the job's own. */
  | { type: 'resultsRewritten'; results: readonly ResultFile[]; output?: OutputSettings }
  /** A re-run replaced this job's results: `results` are the files of it that are still there. */
  | { type: 'resultsSuperseded'; results: readonly ResultFile[] }
  /** What became of an earlier run's review work as this job's results were written. */
  | { type: 'reviewNoted'; review: ReviewNote }
  /** The watch folder's post-action moved the source, and the results that could follow it. */
  | {
      type: 'sourceMoved';
      movedTo: string;
      results: readonly ResultFile[];
      /** Where results go from now on (a rename into another watch folder); absent: unchanged. */
      place?: ResultPlace;
    }
  | { type: 'networkDown'; retryAt: number }
  /** The source is no longer the file taken; `uploadStarted`: its upload had begun (a stream may hold part of it). */
  | { type: 'sourceChanged'; uploadStarted: boolean }
  /** The source's watch folder went away (a share offline): the job waits for it, not failed. */
  | { type: 'sourceAway' }
  /** The watch folder reports the source complete again, as it now is. */
  | { type: 'sourceSettled'; source: FileIdentity }
  /** Shared folder: another computer took the file over (its claim) or finished it; this job ends. */
  /** `host`: the computer that took the file over, when its claim could be read. */
  | { type: 'handedOver'; host?: string }
  /** Start-up replay, queue resumed, or a `scheduleRetry` came due: re-derive the next action. */
  | { type: 'resume' };

export type PauseReason = 'credentials' | 'usage-limit';

export type Effect =
  | { type: 'startUpload'; streamId: string }
  | { type: 'abortUpload'; streamId: string }
  /** GET the stream by id; answer with reattachResult / reattachFailed. */
  | { type: 'checkStream'; streamId: string }
  /** PUT cancel; answer with cancelAnswered / cancelFailed (a job that no longer waits ignores them). */
  | { type: 'cancelStream'; streamId: string }
  | { type: 'pollLater'; streamId: string; at: number }
  | { type: 'readComponents'; streamId: string }
  | { type: 'exportNow'; streamId: string }
  | { type: 'writeResults'; stagedPath: string }
  | { type: 'pauseQueue'; reason: PauseReason; message: string; until?: number }
  /** Wake this job at `at` (send it `resume`; a queued job simply becomes eligible). */
  | { type: 'scheduleRetry'; at: number };

export interface Transition {
  job: JobRecord;
  effects: Effect[];
}
