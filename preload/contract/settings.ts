// The Settings screen's views: connection, credentials, defaults, watch folders.
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings and common/.
import type { RateId } from '../../common/frame-rates.js';
import type { Params, RecipeId, RecipeRef, ResultFormat } from './shared.js';
import type { CaptionSettingsView } from './transcripts.js';

// ---- settings -----------------------------------------------------------------------------------

export type AuthKind = 'apiKey' | 'clientCredentials';
import type { ServiceName } from '../../common/service-names.js';
export type { ServiceName };

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
  /**
   * More caption layouts written beside the first, each as `{name}.{preset}.srt` / `.vtt` (a
   * Broadcast `.srt` and a Vertical `.vertical.srt` from one transcript).
   */
  moreCaptions?: Array<Exclude<CaptionSettingsView['preset'], 'custom'>>;
  /** Where the editor formats' timeline starts; absent: at the source timecode, 25 fps without one. */
  timeline?: TimelineView;
  /** Which markers the editor formats carry; absent: paragraphs and the editor's own. */
  markers?: MarkerSourceView[];
}

/** Speaker turns or paragraphs, the editor's own (review), the chapter recipe's chapters. */
export type MarkerSourceView = 'paragraphs' | 'editor' | 'chapters' | 'quotes';

export type FrameRateId = RateId;

export interface TimelineView {
  /** `source` or a timecode such as `01:00:00:00`. */
  start: string;
  defaultRate: FrameRateId;
}

export type PostActionView = { kind: 'none' } | { kind: 'move'; doneDir: string; failedDir: string };

export interface WatchFolderView {
  id: string;
  path: string;
  enabled: boolean;
  templateId: string;
  params: Params;
  /** Absent or null: the transcript only. */
  recipe?: RecipeRef | null;
  /** Names and terms the transcript must spell right (sent as the enhancement's vocabulary). */
  glossary?: string[];
  include: string[];
  exclude: string[];
  recursive: boolean;
  output: OutputView;
  postAction: PostActionView;
  /** Camera-card rules: absent = 'mix' (proxies and a recorder take's single inputs skipped). */
  cardRules?: 'mix' | 'tracks' | 'off';
  /** Shared with other computers (team mode): one computer per file, by claims on the share. */
  shared?: boolean;
  /** Team mode: seconds without a lease refresh before another computer takes a claim over (default 600). */
  claimTimeoutS?: number;
  /** Absent or null: results beside each source; else this folder, mirroring the folders below the watch folder. */
  outputDir?: string | null;
}

export interface SettingsValues {
  connection: ConnectionView;
  defaults: {
    templateId: string;
    params: Params;
    recipe?: RecipeRef | null;
    glossary?: string[];
    output: OutputView;
  };
  queue: {
    uploadConcurrency: number;
    maxStreamsInFlight: number;
    pollMinMs: number;
    pollMaxMs: number;
    settleMs: number;
    /** On a network drive, how long a file whose container cannot show it is whole must stay unchanged. */
    networkSettleMs: number;
    rescanIntervalMs: number;
    /** How long a media file may stay unchanged and not whole before it is said never to be whole. */
    incompleteAfterMs: number;
    hashContent: boolean;
    fullHash: boolean;
  };
  watchFolders: WatchFolderView[];
  /**
   * Where links' results go (common/link-destination.ts): a watch folder's output folder by id, else
   * `resultsDir`, else (both null) the user's Downloads folder (SettingsView.linkResultsDir says which).
   */
  links: { resultsDir: string | null; watchFolderId?: string | null };
  spendingGuard: { enabled: boolean; monthlyCreditCap: number | null };
  /** The currency Usage shows amounts in (an ISO 4217 code); null: credits. */
  usage: { currency: string | null };
  /** Built-in recipes copied and worded anew; absent: none. */
  customRecipes?: CustomRecipeValue[];
}

/**
 * A built-in recipe copied under the user's name with its questions worded anew. The answer ids
 * and JSON Schemas stay the built-in's, so results read the answers as they always do.
 */
export interface CustomRecipeValue {
  /** `custom-` then lower-case letters, digits and dashes; kept when the recipe is renamed. */
  id: `custom-${string}`;
  /** Unique without case, not a built-in's name; at most 60 characters. */
  name: string;
  basedOn: RecipeId;
  /** One per question of the built-in, in its order; each text at most 4000 characters. */
  prompts: Array<{ prompt: string; system: string }>;
  /** Absent fields: the built-in's. */
  summary?: {
    length?: 'brief' | 'detailed';
    tone?: 'conversational' | 'informative';
    structure?: 'paragraphs' | 'bullet_points';
  };
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

/** One question a recipe asks the service (§11.2 `ask<N>`), as Settings shows it. */
export interface RecipePromptView {
  /** `ask<N>Id`: the key its answer comes back under; results are made from the answers under these. */
  id: string;
  /** `ask<N>`: the question. */
  prompt: string;
  /** `ask<N>System`: the system prompt. */
  system: string;
  /** `ask<N>Format`: the JSON Schema the answer must match, pretty-printed. */
  format: string;
  /** The answer's shape in words, one line per field (`chapters[].title: text — The chapter title…`). */
  fields: Array<{ path: string; type: string; description: string }>;
}

/** A recipe as data: what it asks for, readable in Settings. */
export interface RecipeView {
  /** A built-in's id, or a custom recipe's `custom-…` id. */
  id: RecipeRef;
  /** A custom recipe: the built-in it was copied from, whose answer ids and schemas it keeps. */
  basedOn?: RecipeId;
  label: string;
  description: string;
  summary: {
    length: 'brief' | 'detailed';
    tone: 'conversational' | 'informative';
    structure: 'paragraphs' | 'bullet_points';
  };
  /** At most three (the service's three question slots). */
  prompts: RecipePromptView[];
  /** The result files made from its answers: ticked when a folder or the defaults choose it. */
  formats: ResultFormat[];
}
