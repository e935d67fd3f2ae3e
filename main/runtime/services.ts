// The services the runtime builds, as the outside takes them: a handler, the event hub or a CLI
// view names the few it uses (`Pick<Services, 'queue' | 'settings'>`) rather than the whole
// runtime, so what each depends on is read from its signature and a test can hand in only those.
import type { FolderService } from '../adapters/watch/folder/folder-service.js';
import type { SharedFolders } from '../adapters/claims/shared-folders.js';
import type { TranscriptEditor } from '../adapters/results/transcript-editor.js';
import type { TemplateCatalogueCache } from '../adapters/queue/template-catalogue-cache.js';
import type { SettingsStore } from '../adapters/store/state/settings-store.js';
import type { EngineEvent } from '../engine/events.js';
import type { Settings } from '../engine/settings.js';
import type { Connection } from './connection.js';
import type { History } from './history.js';
import type { QueueCommands } from './queue-commands.js';
import type { Results } from './results.js';
import type { Selects } from './selects.js';

export interface Services {
  readonly stateDir: string;
  readonly settings: SettingsStore;
  readonly connection: Connection;
  readonly queue: QueueCommands;
  readonly results: Results;
  readonly history: History;
  readonly folders: FolderService;
  readonly claims: SharedFolders;
  readonly transcripts: TranscriptEditor;
  /** Lists of selects (string-outs), shared with `sluice selects`. */
  readonly selects: Selects;
  readonly templates: TemplateCatalogueCache;
  /** Subscribes to engine events; returns the unsubscribe function. */
  on(listener: (e: EngineEvent) => void): () => void;
  /** Validates and saves the settings as a whole, then applies them (limits, watch folders). */
  updateSettings(change: (s: Settings) => Settings): Promise<Settings>;
}

/** Events only: what a view that follows the engine needs. */
export type EventSource = Pick<Services, 'on'>;
