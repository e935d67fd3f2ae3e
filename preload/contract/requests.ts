// Every request: `domain:verb` → params → result.
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings and common/.
import type { LinkDestination } from '../../common/link-destination.js';
import type {
  FolderInput,
  FolderPickView,
  FileSystemView,
  FolderStatusView,
  TemplateCatalogueView,
  TemplateCheckView,
} from './folders.js';
import type { HistoryPage, HistoryQuery, ReviewWorkView } from './history.js';
import type {
  AddOutcomeView,
  JobView,
  LinkDestinationsView,
  QueueSnapshot,
  QueueStats,
  ResultFileView,
} from './queue.js';
import type {
  ConnectionTestView,
  ConnectionView,
  RecipeView,
  SettingsPatch,
  SettingsView,
  WatchFolderView,
} from './settings.js';
import type { ComponentsView, MoveDirection, Params, ResultFormat } from './shared.js';
import type {
  SelectAddedView,
  SelectEdit,
  SelectListSummary,
  SelectListView,
  SelectsExportParams,
  SelectsExportView,
  SelectSource,
} from './selects.js';
import type { CaptionPresetName, TranscriptEdit, TranscriptView } from './transcripts.js';
import type { AppInfo, FileCostView, PricedCurrenciesView, UsageQuery, UsageView } from './usage.js';

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
   * the links folder, or to `destination`, checked before any link is sent (a VALIDATION error on
   * field `destination` says what to do) and then kept as the default. A link already processed is
   * skipped unless `force`.
   */
  'queue:addLinks': {
    params: { links: string[]; templateId?: string; params?: Params; force?: boolean; destination?: LinkDestination };
    result: AddOutcomeView[];
  };
  /** The places the Add-link dialog offers for the results, and the one it opens on. */
  'queue:linkDestinations': { params: NoParams; result: LinkDestinationsView };
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
  /**
   * Writes every result format again from the export kept in the state dir, without processing
   * again; `captionPreset` adds captions in that layout beside the main ones (`{name}.vertical.srt`,
   * as the folder option names them), or, with `replaceCaptions`, lays the main captions out anew.
   */
  'queue:rewrite': { params: Id & { captionPreset?: CaptionPresetName; replaceCaptions?: boolean }; result: JobView };
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
  /** The key typed and the connection chosen on screen, not yet saved; absent: the saved ones. */
  'settings:testConnection': { params: { apiKey?: string; connection?: ConnectionView }; result: ConnectionTestView };

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
  /** Looks at a file the folder left (not whole, empty) now: taken at once if whole, else said so again. */
  'folders:retrySkipped': { params: { folderId: string; id: string }; result: FolderStatusView[] };
  /** Stops reporting a file not whole (or empty) while it stays as it is; kept across restarts. */
  'folders:ignoreSkipped': { params: { folderId: string; id: string }; result: FolderStatusView[] };
  /** Undoes an Ignore. */
  'folders:unignoreSkipped': { params: { folderId: string; id: string }; result: FolderStatusView[] };
  /** Which file system a folder is on, and the team-mode hint for a network drive (unknown when unreadable). */
  'folders:fileSystem': { params: { path: string }; result: FileSystemView };

  /** The account's templates merged with the public ones; `refresh` reads the service's list again. */
  'templates:list': { params: { refresh?: boolean }; result: TemplateCatalogueView };
  /** Checks a template and parameters with the service (preview, nothing is created). */
  'templates:check': { params: { templateId: string; params: Params }; result: TemplateCheckView };

  /** The built-in recipes with their prompts, system prompts and answer schemas, in choosing order. */
  'recipes:list': { params: NoParams; result: RecipeView[] };
  /** The terms of a glossary file's text (a text file, or a CSV's first column), one per line, each once. */
  'recipes:parseGlossary': { params: { text: string }; result: { terms: string[] } };

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
  /** The review work in the job's transcript: what a re-run carries over onto its new transcript. */
  'history:reviewWork': { params: { jobId: string }; result: ReviewWorkView };
  /**
   * Fetches the export again from the service (while it still holds the stream) and rewrites the
   * results; `formats` (at least one, the JSON is kept anyway) replaces the job's formats first,
   * and `captionPreset` adds a caption layout beside the main captions (or, with `replaceCaptions`,
   * replaces the main layout), as in queue:rewrite.
   */
  'history:reexport': {
    params:
      | { jobId: string; formats?: ResultFormat[]; captionPreset?: CaptionPresetName; replaceCaptions?: boolean }
      | { streamId: string };
    /**
     * `fromKept`: written from the export kept on this computer, because the service no longer
     * holds the stream (`gone`) or cannot be reached (`unreachable`).
     */
    result: { results: ResultFileView[]; fromKept?: 'gone' | 'unreachable' };
  };

  /** Service validation errors come back as VALIDATION with `fields` on start/end/currency/granularity. */
  'usage:report': { params: UsageQuery; result: UsageView };
  'usage:csv': { params: UsageQuery; result: { fileName: string; csv: string } };
  /**
   * What one file cost: its stream's usage per operation, in the currency chosen in Settings
   * (else credits). NOT_FOUND when the service no longer keeps the stream's usage; every error in words.
   */
  'usage:stream': { params: { streamId: string }; result: FileCostView };
  /** The currencies the service prices usage in (Usage and Settings offer these, besides credits). */
  'usage:currencies': { params: NoParams; result: PricedCurrenciesView };

  /** The transcript of a completed job, corrections applied, with its media to play. */
  'transcript:open': { params: { jobId: string }; result: TranscriptView };
  /** CONFLICT when `revision` is not the current one (another window changed it first). */
  'transcript:edit': { params: { jobId: string; revision: number; edit: TranscriptEdit }; result: TranscriptView };
  'transcript:undo': { params: { jobId: string }; result: TranscriptView };
  'transcript:redo': { params: { jobId: string }; result: TranscriptView };
  /** Back to the service's transcript as received (itself undoable). */
  'transcript:revert': { params: { jobId: string }; result: TranscriptView };
  /**
   * The results the review wrote under a fallback name because the editor had changed the usual
   * file by hand (`heldBy` on a result) are written over those files instead; the fallbacks go.
   */
  'transcript:overwriteHeld': { params: { jobId: string }; result: { results: ResultFileView[] } };

  /** Every list of selects in the state folder (the CLI's too), by name. */
  'selects:lists': { params: NoParams; result: SelectListSummary[] };
  /** A list with each select as it reads now; a list not made yet is empty (revision 0). */
  'selects:open': { params: { list: string }; result: SelectListView };
  /** Words [from, to) of a completed job's transcript, at the end of the list (made when there is none). */
  'selects:add': { params: { list: string; jobId: string; from: number; to: number }; result: SelectListView };
  /**
   * The words a moment (widened to its sentence or turn), a marker, a chapter or a pull quote of a
   * completed job names, found by main, at the end of the list.
   */
  'selects:addFrom': { params: { list: string; jobId: string; from: SelectSource }; result: SelectAddedView };
  'selects:edit': { params: { list: string; edit: SelectEdit }; result: SelectListView };
  /** Writes the list for the editor, every file or none (the same export as `sluice selects export`). */
  'selects:export': { params: SelectsExportParams; result: SelectsExportView };
}

export type Channel = keyof Requests;
export type ParamsOf<C extends Channel> = Requests[C]['params'];
export type ResultOf<C extends Channel> = Requests[C]['result'];
