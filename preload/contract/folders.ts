// Watch folders and templates as the screens show them.
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings.
import type { WatchFolderView } from './settings.js';
import type { FolderState } from './shared.js';

// ---- folders, templates, history, usage ---------------------------------------------------------

/** A folder's file system as team mode sees it (main/engine/file-system-kind.ts). */
export interface FileSystemView {
  verdict: 'network' | 'maybe' | 'local' | 'unknown';
  /** "SMB", "NFS", "ext4"; absent when unknown. */
  label?: string;
  /** The suggestion to share the folder, for a network drive. */
  hint?: string;
}

export interface FolderStatusView {
  folderId: string;
  path: string;
  state: FolderState;
  message?: string;
  since: number;
  fileCount?: number;
  /** What the last Rescan found, and the sentence that says it. */
  lastRescan?: RescanSummaryView;
  /** Files the card rules skipped in this folder since Sluice started (newest first, at most 100). */
  cardSkips?: CardSkipView[];
  /** Every other file the folder found and did not queue, with why (needing the editor first; at most 200). */
  skips?: SkipView[];
}

/** Why a watch folder did not queue a file (main/engine/folder-skips.ts). */
export type SkipReasonView = 'second-copy' | 'empty' | 'dangling-link' | 'never-whole' | 'ignored' | 'card-rule';

export interface SkipView {
  /** Names the file in `folders:retrySkipped`, `folders:ignoreSkipped`, `folders:unignoreSkipped`. */
  id: string;
  /** Relative to the watch folder. */
  path: string;
  fileName: string;
  reason: SkipReasonView;
  /** "Not whole", "Empty", "Link to nowhere", "Second copy", "Ignored". */
  label: string;
  /** What is wrong, in the editor's words. */
  why: string;
  /** What to do about it. */
  todo: string;
  at: number;
  canRetry: boolean;
  canIgnore: boolean;
  canUnignore: boolean;
}

/** The card rules a watch folder applies (main/engine/card-rules.ts), as the folder editor lists them. */
export const CARD_RULE_LIST = [
  { id: 'sony-proxy', label: 'Sony proxies', example: 'SUB/C0001S03.MP4 beside CLIP/C0001.MP4' },
  { id: 'dji-proxy', label: 'DJI proxies', example: 'DJI_0001.LRF beside DJI_0001.MP4' },
  { id: 'gopro-proxy', label: 'GoPro proxies', example: 'GL010234.LRV beside GX010234.MP4' },
  {
    id: 'proxy-folder',
    label: 'Proxy folders (Blackmagic, Resolve, Premiere)',
    example: 'Proxy/A001_C002.mov beside A001_C002.mov',
  },
  { id: 'nle-cache', label: 'Editing caches', example: 'CacheClip/, Media Cache Files/, OptimizedMedia/' },
  {
    id: 'zoom-track',
    label: "A recorder take's single inputs (mix kept)",
    example: 'ZOOM0007_Tr1.WAV beside ZOOM0007_LR.WAV',
  },
  { id: 'zoom-mix', label: "A recorder take's mix (inputs kept)", example: 'ZOOM0007_LR.WAV beside ZOOM0007_Tr1.WAV' },
] as const;
export type CardRuleId = (typeof CARD_RULE_LIST)[number]['id'];

export interface CardSkipView {
  /** The skipped file, relative to the watch folder. */
  path: string;
  rule: CardRuleId;
  /** The file processed instead (relative to the watch folder); null when the rule skips whatever is beside it. */
  winner: string | null;
  at: number;
}

export interface RescanSummaryView {
  at: number;
  newFiles: number;
  inQueue: number;
  alreadyProcessed: number;
  stillCopying: number;
  /** New but never queued, by reason: `newFiles` is what was queued. */
  skipped?: Partial<Record<SkipReasonView, number>>;
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
