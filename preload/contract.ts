// THE contract between main and the renderer: every request (`domain:verb` → params → result),
// every event (`noun:past-participle` → payload), the error codes and the view types. Both
// transports (Electron IPC and the web bridge) carry exactly this. No imports: the sandboxed
// preload bundles this file and the renderer type-checks against it without seeing main/.
// Note: only ADD to this file; the renderer is written against it.

// ---- results and errors -------------------------------------------------------------------------

export type ErrorCode =
  /** The payload did not match the channel's schema (a bug in the caller). */
  | 'INVALID_PARAMS'
  /** A value a person typed is wrong; `fields` says which and why. */
  | 'VALIDATION'
  | 'NOT_FOUND'
  /** The thing exists but is in the wrong state for this (retry a running job...). */
  | 'CONFLICT'
  /** This platform cannot do it (a native dialog in the browser). */
  | 'NOT_SUPPORTED'
  /** The service answered with an error; `internalErrorName` carries its name. */
  | 'SERVICE'
  | 'CREDENTIALS'
  | 'OFFLINE'
  /** The system keychain is missing, locked or refused; the message says what to install or unlock. */
  | 'KEYCHAIN'
  | 'FILESYSTEM'
  /** The request did not come from Sluice's own window (Electron) or lacked the token (web). */
  | 'FORBIDDEN'
  | 'INTERNAL';

export interface FieldError {
  /** Dotted path of the field ("queue.uploadConcurrency", "watchFolders.0.path", "start"). */
  path: string;
  message: string;
}

export interface BridgeError {
  code: ErrorCode;
  /** A sentence a person can act on; never holds a secret. */
  message: string;
  /** Trying the same request again later may succeed. */
  retryable: boolean;
  fields?: FieldError[];
  internalErrorName?: string;
  statusCode?: number;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

// ---- shared literals (mirrors of main's unions; main checks they stay equal) ---------------------

export type JobState =
  'queued' | 'uploading' | 'processing' | 'exporting' | 'completed' | 'failed' | 'canceled' | 'expired';
export type StreamState = 'READY' | 'COMPLETED' | 'FAILED' | 'EXPIRED';
export type GatewayState = 'CONNECTED' | 'DISCONNECTED' | 'CLOSED' | 'ERROR';
export type ProcessorState = 'WAITING' | 'RUNNING' | 'COMPLETED' | 'ERROR' | 'CLOSED';

/** A stream's gateway and processors as the service reports them. */
export interface ComponentsView {
  gateway?: GatewayState;
  processors: Array<{ processorId: string; state: ProcessorState; stateDescription: string | null }>;
}
export type ResultFormat = 'json' | 'srt' | 'vtt' | 'txt' | 'csv' | 'md' | 'docx';
export type ParamValue = string | number | boolean | string[];
export type Params = Record<string, ParamValue>;
export type QueuePauseReason = 'credentials' | 'usage-limit' | 'user' | 'offline' | 'spending-cap' | 'storage';
export type FolderState = 'watching' | 'paused' | 'scanning' | 'unavailable' | 'error' | 'disabled';
export type Granularity = 'HOURS' | 'DAYS' | 'MONTHS';
export type Platform = 'electron' | 'web';

/** One place up or down, or to the top or the bottom of the waiting jobs. */
export type MoveDirection = 'up' | 'down' | 'top' | 'bottom';

// ---- jobs and the queue -------------------------------------------------------------------------

export type JobOriginView = { kind: 'manual' } | { kind: 'watch'; folderId: string };

export interface ResultFileView {
  format: ResultFormat;
  path: string;
  fileName: string;
  /** Written under a fallback name because a file Sluice did not write held the usual one. */
  collided: boolean;
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
  stuck: boolean;
  results: ResultFileView[];
  resultWarning?: string;
  movedTo?: string;
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

export interface QueueSnapshot extends QueueStats {
  /** Every job not dismissed, in queue order (active first, then finished, newest first). */
  jobs: JobView[];
  /** Files still being copied into watch folders (they become jobs once the copy is over). */
  copying?: CopyingView[];
  generatedAt: number;
}

export type AddOutcomeView =
  | { path: string; outcome: 'added' | 'already-queued' | 'already-done' | 'retried'; jobId: string }
  | { path: string; outcome: 'rejected'; message: string };

// ---- settings -----------------------------------------------------------------------------------

export type AuthKind = 'apiKey' | 'clientCredentials';
export type ServiceName = 'gateway' | 'stream' | 'export' | 'usage' | 'configuration' | 'auth';

export type ConnectionView =
  | { mode: 'sandbox' }
  | { mode: 'production'; auth: AuthKind }
  | { mode: 'custom'; auth: AuthKind; baseUrl?: string; urls: Partial<Record<ServiceName, string>> };

export interface OutputView {
  formats: ResultFormat[];
  /** Without extension; tokens {name} {ext} {template} {date}. */
  pattern: string;
  languageSuffix: string | null;
  txtTimestamps: boolean;
  /** How SRT and VTT captions are laid out. */
  captions: CaptionSettingsView;
}

export type PostActionView = { kind: 'none' } | { kind: 'move'; doneDir: string; failedDir: string };

export interface WatchFolderView {
  id: string;
  path: string;
  enabled: boolean;
  templateId: string;
  params: Params;
  include: string[];
  exclude: string[];
  recursive: boolean;
  output: OutputView;
  postAction: PostActionView;
  /** Camera-card rules: absent = 'mix' (proxies and a recorder take's single inputs skipped). */
  cardRules?: 'mix' | 'tracks' | 'off';
}

export interface SettingsValues {
  connection: ConnectionView;
  defaults: { templateId: string; params: Params; output: OutputView };
  queue: {
    uploadConcurrency: number;
    maxStreamsInFlight: number;
    pollMinMs: number;
    pollMaxMs: number;
    settleMs: number;
    rescanIntervalMs: number;
    hashContent: boolean;
    fullHash: boolean;
  };
  watchFolders: WatchFolderView[];
  /** `resultsDir` null: the user's Downloads folder (SettingsView.linkResultsDir says which). */
  links: { resultsDir: string | null };
  spendingGuard: { enabled: boolean; monthlyCreditCap: number | null };
  /** The currency Usage shows amounts in (an ISO 4217 code); null: credits. */
  usage: { currency: string | null };
}

export interface CredentialsView {
  apiKey: 'set' | 'unset';
  /** The last four characters only: '••••abcd'. */
  masked?: string;
  clientId?: string;
  clientSecret?: 'set' | 'unset';
  secretStore: 'keychain' | 'safeStorage' | 'unavailable';
  /** Why secrets cannot be stored, and what to install or unlock. */
  problem?: string;
  /** A key from SLUICE_API_KEY / SLUICE_CLIENT_ID wins over the stored one. */
  fromEnvironment?: boolean;
  /** A key given for this run only ("until Sluice quits"): in main's memory, never on disk. */
  sessionKey?: boolean;
}

export interface SettingsView extends SettingsValues {
  credentials: CredentialsView;
  /** Where the results of media links go now: the chosen folder, or the Downloads folder. */
  linkResultsDir: string;
  /** Electron only; absent in the browser. */
  startAtLogin?: boolean;
}

type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
/** Objects merge key by key; arrays and the connection replace what they are given. */
export type SettingsPatch = DeepPartial<Omit<SettingsValues, 'connection'>> & { connection?: ConnectionView };

export type ConnectionTestView =
  | { success: true; connection: string; simulated: boolean; latencyMs: number }
  | { success: false; connection: string; message: string; internalErrorName?: string; statusCode?: number };

// ---- folders, templates, history, usage ---------------------------------------------------------

export interface FolderStatusView {
  folderId: string;
  path: string;
  state: FolderState;
  message?: string;
  since: number;
  fileCount?: number;
  /** What the last Rescan found, and the sentence that says it. */
  lastRescan?: RescanSummaryView;
}

export interface RescanSummaryView {
  at: number;
  newFiles: number;
  inQueue: number;
  alreadyProcessed: number;
  stillCopying: number;
  /** "3 new files, 2 already processed, 1 still copying." */
  text: string;
}

export type FolderPickView =
  { supported: false } | { supported: true; canceled: true } | { supported: true; canceled: false; path: string };

export type FolderInput = Omit<Partial<WatchFolderView>, 'id'> & { path: string };

export interface ParamSpecView {
  name: string;
  label: string;
  type: 'boolean' | 'number' | 'integer' | 'string' | 'enum' | 'language';
  repeatable: boolean;
  values?: string[];
  min?: number;
  max?: number;
  maxLength?: number;
  default?: string | number | boolean | null;
  longText: boolean;
  group: 'transcription' | 'diarization' | 'intelligence' | 'enhancement';
}

export interface TemplateView {
  id: string;
  name: string;
  description: string;
  processors: string[];
  diarizes: boolean;
  sandboxOnly: boolean;
  exportable: boolean;
  /** False for a sandbox-only template on a production connection. */
  available: boolean;
  /** One of the account's own templates (listed by the configuration service, not a public one). */
  account: boolean;
  params: ParamSpecView[];
}

export interface TemplateCatalogueView {
  templates: TemplateView[];
  /** 'account': the account's list was read and merged with the public templates; 'builtin': only the public ones. */
  source: 'account' | 'builtin';
  /** Set when the account's templates could not be read (unreachable, refused). */
  notice?: string;
}

export interface TemplateCheckView {
  /** True when the service accepts the template with these parameters. */
  ok: boolean;
  checkedBy: 'sluice' | 'service';
  /** `field` is `templateId`, `params.<name>`, or '' when the service's answer names no parameter. */
  problems: Array<{ field: string; message: string }>;
  /** Set when Sluice cannot describe the template (its parameters were left to the service). */
  notice?: string;
}

export interface HistoryEntry {
  /** `job:<id>` or `stream:<streamId>`; stable across pages. */
  key: string;
  /** 'external': a stream started elsewhere (another machine, the API), known only to the service. */
  origin: 'local' | 'external';
  jobId?: string;
  streamId?: string;
  /** The source file name, or the stream's name for an external stream. */
  fileName: string;
  sourcePath?: string;
  folderId?: string;
  template: { id: string; name: string };
  /** Local job state; external streams map READY→processing, COMPLETED→completed, FAILED→failed, EXPIRED→expired. */
  state: JobState;
  streamState?: StreamState;
  createdAt: number;
  completedAt?: number;
  totalBytes?: number;
  results: ResultFileView[];
  error?: string;
  plainError?: PlainErrorView;
  noSpeech?: boolean;
  /** A local job's result formats and template parameters, what a re-export starts from. */
  formats?: ResultFormat[];
  params?: Params;
  canCancelStream: boolean;
  canRerun: boolean;
  canReexport: boolean;
  /** Set when the search words were found inside the transcript: the line and the moment to open it at. */
  match?: TranscriptMatchView;
}

export type HistorySortKey = 'created' | 'completed' | 'name' | 'state' | 'size';

export interface HistoryQuery {
  /** Case-insensitive substring of the file name, or words of the transcript (any order, accents ignored). */
  search?: string;
  states?: JobState[];
  templateIds?: string[];
  /** Watch-folder ids; 'manual' for files added by hand. */
  folderIds?: string[];
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
  external: { included: boolean; fetchedAt?: number; count?: number; problem?: string };
}

export interface UsageQuery {
  /** ISO date or date-time; default: the 1st of the current month (UTC). */
  start?: string;
  end?: string;
  granularity?: Granularity;
  /** Absent: amounts in credits. */
  currency?: string;
}

export interface UsageItemView {
  credits: string;
  startTimestamp: number;
  endTimestamp: number;
  streamsCount: number;
  operationType?: string;
  streamConfigurationTemplateId?: string;
  /** Integers written as strings (the service's shape). */
  measurements: Record<string, string>;
}

export interface UsageView {
  startTimestamp: number;
  endTimestamp: number;
  granularity: Granularity;
  currency: string | null;
  total: UsageItemView;
  byPeriod: UsageItemView[];
  /** One total per operation type over the whole period (the service's per-bucket items added up). */
  byOperation: UsageItemView[];
  /** One total per template over the whole period. */
  byTemplate: Array<UsageItemView & { templateName?: string }>;
  cap: { enabled: boolean; monthlyCreditCap: number | null; pausedByCap: boolean };
  simulated: boolean;
}

export interface AppInfo {
  version: string;
  platform: Platform;
  simulated: boolean;
  connection: string;
  os: string;
  startAtLoginSupported: boolean;
}

// ---- transcripts: review and corrections --------------------------------------------------------
// Note: the channels that carry these (to be added to `Requests`) are
//   'transcript:open'   { jobId }                                  → TranscriptView
//   'transcript:edit'   { jobId, revision, edit: TranscriptEdit }  → TranscriptView (CONFLICT on a stale revision)
//   'transcript:undo' | 'transcript:redo' | 'transcript:revert'  { jobId } → TranscriptView
// and the event 'transcript:changed' → TranscriptChangedView. History search matches transcript words
// too and fills `HistoryEntry.match`.

/** One word of a transcript; times in milliseconds from the media's start. */
export interface TranscriptWordView {
  /** The word without its leading space ("afternoon."). */
  text: string;
  start: number;
  end: number;
  /** Speaker id as the service gave it ("1"); absent without diarization. */
  speaker?: string;
  confidence?: number;
  /** Changed by a correction (text or speaker). */
  corrected: boolean;
}

export interface TranscriptSpeakerView {
  id: string;
  /** "Speaker 1", or the name the editor gave. */
  name: string;
  renamed: boolean;
}

/** A run of words by one speaker: words[first] up to, not including, words[end]. */
export interface TranscriptParagraphView {
  first: number;
  end: number;
  speaker?: string;
  /** Milliseconds: the first word's start, the last word's end. */
  startMs: number;
  endMs: number;
}

export type TranscriptMediaView =
  | {
      kind: 'audio' | 'video';
      /** What the player loads: the app's protocol in Electron, a token-protected path in the browser; range requests. */
      url: string;
      mimeType: string;
    }
  /** The source is gone or unreadable: the transcript still opens, and the player says why. */
  | { kind: 'missing'; message: string };

export interface TranscriptView {
  jobId: string;
  fileName: string;
  media: TranscriptMediaView;
  words: TranscriptWordView[];
  paragraphs: TranscriptParagraphView[];
  speakers: TranscriptSpeakerView[];
  /** Bumped by every change; an edit names the revision it was made on. */
  revision: number;
  /** Differs from the service's transcript as received. */
  corrected: boolean;
  canUndo: boolean;
  canRedo: boolean;
  simulated: boolean;
  /** The results beside the source, as rewritten after the last change. */
  results: ResultFileView[];
}

export type TranscriptEdit =
  /** Words [from, to) become the words of `text`, spread over the original span. */
  | { kind: 'replace'; from: number; to: number; text: string }
  /** Renames a speaker for the whole file. */
  | { kind: 'renameSpeaker'; speaker: string; name: string }
  /** Words [from, to) (a paragraph) are given to another speaker. */
  | { kind: 'setSpeaker'; from: number; to: number; speaker: string };

export interface TranscriptChangedView {
  jobId: string;
  revision: number;
  results: ResultFileView[];
  /** Set when the results beside the source could not be rewritten (the corrections are kept). */
  resultWarning?: string;
}

/** Where a History search found its words inside a transcript. */
export interface TranscriptMatchView {
  /** The matching line, about 120 characters around the hit. */
  text: string;
  /** Where the hit starts in the media, milliseconds. */
  atMs: number;
}

export type CaptionPresetId = 'streaming' | 'broadcast' | 'vertical' | 'custom';

/** Caption layout for SRT and VTT; the presets fix every field but `custom`. */
export interface CaptionSettingsView {
  preset: CaptionPresetId;
  charsPerLine: number;
  lines: number;
  minDurationMs: number;
  maxDurationMs: number;
  minGapMs: number;
}

// ---- requests -----------------------------------------------------------------------------------

export type NoParams = Record<string, never>;
type Id = { id: string };

/** Every request: channel → { params, result }. Adding a channel here makes the compiler ask for its schema, handler and preload method. */
export interface Requests {
  'app:info': { params: NoParams; result: AppInfo };
  /** Renderer handshake: events are buffered until this arrives, then flushed in order. */
  'app:ready': { params: NoParams; result: null };
  'app:setStartAtLogin': { params: { enabled: boolean }; result: { enabled: boolean } };

  'queue:snapshot': { params: NoParams; result: QueueSnapshot };
  /** Paths from a drop (Electron: `api.files.pathForFile`) or from `queue:pickFiles`. */
  'queue:add': {
    params: { paths: string[]; templateId?: string; params?: Params; force?: boolean };
    result: AddOutcomeView[];
  };
  /**
   * Public http(s) media links the service fetches itself (one per entry); their results go to
   * the links folder. A link already processed is skipped unless `force`.
   */
  'queue:addLinks': {
    params: { links: string[]; templateId?: string; params?: Params; force?: boolean };
    result: AddOutcomeView[];
  };
  'queue:pickFiles': {
    params: NoParams;
    result: { supported: false } | { supported: true; canceled: boolean; paths: string[] };
  };
  'queue:pause': { params: NoParams; result: QueueStats };
  'queue:resume': { params: NoParams; result: QueueStats };
  'queue:stopAfterCurrent': { params: NoParams; result: QueueStats };
  'queue:cancel': { params: Id; result: JobView };
  'queue:retry': { params: Id; result: JobView };
  /** `skipped`: failed files left alone because a retry could never succeed (gone, empty, not media). */
  'queue:retryFailed': {
    params: NoParams;
    result: { count: number; skipped?: Array<{ fileName: string; reason: string }> };
  };
  'queue:move': { params: Id & { direction: MoveDirection }; result: null };
  'queue:dismiss': { params: Id; result: null };
  /** Dismisses every finished job at once (one `queue:snapshot-changed`). */
  'queue:dismissFinished': { params: NoParams; result: { count: number } };
  /** Writes every result format again from the export kept in the state dir, without processing again. */
  'queue:rewrite': { params: Id; result: JobView };
  /** The service's components for the job's stream, read now (the engine reads them only on failure). */
  'queue:components': { params: Id; result: ComponentsView | null };

  'result:open': { params: { jobId: string; format: ResultFormat }; result: null };
  'result:reveal': { params: { jobId: string; format: ResultFormat }; result: null };
  'source:reveal': { params: { jobId: string }; result: null };

  'settings:get': { params: NoParams; result: SettingsView };
  /** Validated as a whole; nothing is saved when any field is wrong (VALIDATION with `fields`). */
  'settings:update': { params: { patch: SettingsPatch }; result: SettingsView };
  'settings:setApiKey': { params: { apiKey: string }; result: SettingsView };
  'settings:clearApiKey': { params: NoParams; result: SettingsView };
  'settings:setClientCredentials': { params: { clientId: string; clientSecret: string }; result: SettingsView };
  /** Keeps the key in memory until Sluice quits: nothing is written (for machines without a keychain). */
  'settings:useSessionKey': { params: { apiKey: string }; result: SettingsView };
  /** With `apiKey`: tests that key (typed, not yet saved) against the configured service; nothing is kept. */
  'settings:testConnection': { params: { apiKey?: string }; result: ConnectionTestView };

  'folders:pick': { params: NoParams; result: FolderPickView };
  /** The path must exist and be a folder (VALIDATION on `path` otherwise). */
  'folders:add': { params: { folder: FolderInput }; result: WatchFolderView };
  'folders:update': { params: Id & { patch: Omit<Partial<WatchFolderView>, 'id'> }; result: WatchFolderView };
  'folders:remove': { params: Id; result: null };
  'folders:pause': { params: Id; result: FolderStatusView[] };
  'folders:resume': { params: Id; result: FolderStatusView[] };
  /** Without id: every folder. */
  'folders:rescan': { params: { id?: string }; result: FolderStatusView[] };
  'folders:statuses': { params: NoParams; result: FolderStatusView[] };

  /** The account's templates merged with the public ones; `refresh` reads the service's list again. */
  'templates:list': { params: { refresh?: boolean }; result: TemplateCatalogueView };
  /** Checks a template and parameters with the service (preview, nothing is created). */
  'templates:check': { params: { templateId: string; params: Params }; result: TemplateCheckView };

  'history:list': { params: HistoryQuery; result: HistoryPage };
  'history:cancelStream': { params: { streamId: string }; result: { alreadyFinished: boolean } };
  /** The service's components for any stream (Sluice's or another tool's), read now. */
  'history:components': { params: { streamId: string }; result: ComponentsView };
  /**
   * Queues the job's source again, with another template if given. Without `params`, the job's
   * parameters the template accepts are kept; `language` (none: detect) replaces the job's languages.
   */
  'history:rerun': {
    params: { jobId: string; templateId?: string; params?: Params; language?: string[] };
    result: AddOutcomeView[];
  };
  /**
   * Fetches the export again from the service (while it still holds the stream) and rewrites the
   * results; `formats` (at least one, the JSON is kept anyway) replaces the job's formats first.
   */
  'history:reexport': {
    params: { jobId: string; formats?: ResultFormat[] } | { streamId: string };
    result: { results: ResultFileView[] };
  };

  /** Service validation errors come back as VALIDATION with `fields` on start/end/currency/granularity. */
  'usage:report': { params: UsageQuery; result: UsageView };
  'usage:csv': { params: UsageQuery; result: { fileName: string; csv: string } };

  /** The transcript of a completed job, corrections applied, with its media to play. */
  'transcript:open': { params: { jobId: string }; result: TranscriptView };
  /** CONFLICT when `revision` is not the current one (another window changed it first). */
  'transcript:edit': { params: { jobId: string; revision: number; edit: TranscriptEdit }; result: TranscriptView };
  'transcript:undo': { params: { jobId: string }; result: TranscriptView };
  'transcript:redo': { params: { jobId: string }; result: TranscriptView };
  /** Back to the service's transcript as received (itself undoable). */
  'transcript:revert': { params: { jobId: string }; result: TranscriptView };
}

export type Channel = keyof Requests;
export type ParamsOf<C extends Channel> = Requests[C]['params'];
export type ResultOf<C extends Channel> = Requests[C]['result'];

// ---- events -------------------------------------------------------------------------------------

/** Every event main sends: name → payload. Progress is coalesced (≤ 10/s per job). */
export interface Events {
  'job:added': JobView;
  'job:updated': JobView;
  'job:removed': { id: string };
  /** Sent instead of many job events when a lot changed at once: replace the whole queue. */
  'queue:snapshot-changed': QueueSnapshot;
  /** Counts, batch progress and ETA; at most once a second. */
  'queue:stats-changed': QueueStats;
  /** The files still being copied into watch folders, all of them, whenever one appears, grows or is taken. */
  'queue:copying-changed': CopyingView[];
  'queue:paused': PauseView;
  'queue:resumed': Record<string, never>;
  'folder:status-changed': FolderStatusView;
  'settings:changed': SettingsView;
  /** A different service or key is in use (info changed). */
  'connection:changed': AppInfo;
  /** The tray or a notification asked to show something (a job, or a screen). */
  'navigation:requested': { screen: 'queue' | 'history' | 'usage' | 'settings'; jobId?: string };
  /** A transcript was corrected (any window) and its results rewritten. */
  'transcript:changed': TranscriptChangedView;
}

export type EventName = keyof Events;

// ---- the bridge as the renderer sees it ----------------------------------------------------------

type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type VerbOf<C extends string, D extends string> = C extends `${D}:${infer V}` ? V : never;
export type SubscriptionName<E extends string> = E extends `${infer N}:${infer V}`
  ? `on${Capitalize<Camel<N>>}${Capitalize<Camel<V>>}`
  : never;

type Method<C extends Channel> =
  NoParams extends ParamsOf<C>
    ? (params?: ParamsOf<C>) => Promise<Result<ResultOf<C>>>
    : (params: ParamsOf<C>) => Promise<Result<ResultOf<C>>>;

/** `api.queue.retry({ id })`, `api.onJobUpdated(cb)` (returns unsubscribe), `api.files.pathForFile(file)`. */
export type BridgeApi = {
  [D in DomainOf<Channel>]: { [V in VerbOf<Channel, D>]: Method<`${D}:${V}` & Channel> };
} & {
  [E in EventName as SubscriptionName<E>]: (listener: (payload: Events[E]) => void) => () => void;
} & {
  platform: Platform;
  /** Electron: the path of a dropped File (webUtils.getPathForFile); undefined in the browser. */
  files: { pathForFile(file: unknown): string | undefined };
};

// ---- runtime constants (strings only; shared by preload, renderer and main) ---------------------

/** The environment variable Sluice reads the API key from (it wins over a stored key). */
/**
 * Formats made from the transcript's words alone: media with no speech gets none of them (only
 * the JSON, and Markdown when asked). Main writes by it, the renderer explains by it.
 */
export const WORD_FORMATS: readonly ResultFormat[] = ['srt', 'vtt', 'txt', 'csv', 'docx'];

export const API_KEY_ENV = 'SLUICE_API_KEY';

/** Every channel, in contract order; main checks at compile time that this matches `Requests`. */
export const CHANNELS = [
  'app:info',
  'app:ready',
  'app:setStartAtLogin',
  'queue:snapshot',
  'queue:add',
  'queue:addLinks',
  'queue:pickFiles',
  'queue:pause',
  'queue:resume',
  'queue:stopAfterCurrent',
  'queue:cancel',
  'queue:retry',
  'queue:retryFailed',
  'queue:move',
  'queue:dismiss',
  'queue:dismissFinished',
  'queue:rewrite',
  'queue:components',
  'result:open',
  'result:reveal',
  'source:reveal',
  'settings:get',
  'settings:update',
  'settings:setApiKey',
  'settings:clearApiKey',
  'settings:setClientCredentials',
  'settings:useSessionKey',
  'settings:testConnection',
  'folders:pick',
  'folders:add',
  'folders:update',
  'folders:remove',
  'folders:pause',
  'folders:resume',
  'folders:rescan',
  'folders:statuses',
  'templates:list',
  'templates:check',
  'history:list',
  'history:cancelStream',
  'history:components',
  'history:rerun',
  'history:reexport',
  'usage:report',
  'usage:csv',
  'transcript:open',
  'transcript:edit',
  'transcript:undo',
  'transcript:redo',
  'transcript:revert',
] as const satisfies readonly Channel[];

export const EVENT_NAMES = [
  'job:added',
  'job:updated',
  'job:removed',
  'queue:snapshot-changed',
  'queue:stats-changed',
  'queue:copying-changed',
  'queue:paused',
  'queue:resumed',
  'folder:status-changed',
  'settings:changed',
  'connection:changed',
  'navigation:requested',
  'transcript:changed',
] as const satisfies readonly EventName[];

/** Electron IPC channel carrying every event as `{ name, payload }` (one listener in preload). */
export const EVENT_CHANNEL = 'sluice:event';

/** Web bridge: `POST /api/<channel>` with JSON params; header carrying the token; events over SSE. */
export const WEB = {
  apiPrefix: '/api/',
  tokenHeader: 'x-sluice-token',
  /**
   * Server-Sent Events, one `event: <EventName>` + `data: <JSON payload>` per event. EventSource
   * cannot send headers: the token goes in the query string (`?token=`). Every connection starts
   * with one `queue:snapshot-changed`, so nothing is missed between connecting and the first event.
   */
  eventsPath: '/api/events',
  /** multipart/form-data (fields templateId, params as JSON, then files) or a raw body with ?name=. */
  uploadPath: '/api/queue:upload',
  /**
   * `GET ?jobId=&format=` with the token header: one result file of a job as an attachment
   * (Content-Disposition with the exact name as RFC 5987 `filename*`). The browser's way to take
   * results home, since they live in the state folder on the machine running `sluice serve`.
   */
  downloadPath: '/api/result:download',
} as const;

/** What `POST /api/queue:upload` answers: one outcome per uploaded file (queued as manual jobs). */
export type UploadResult = Result<AddOutcomeView[]>;

/** 'job:updated' → 'onJobUpdated', 'queue:snapshot-changed' → 'onQueueSnapshotChanged'. */
export function subscriptionName<E extends EventName>(event: E): SubscriptionName<E> {
  const camel = (s: string): string => s.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
  const [noun = '', verb = ''] = event.split(':');
  return `on${cap(camel(noun))}${cap(camel(verb))}` as SubscriptionName<E>;
}
