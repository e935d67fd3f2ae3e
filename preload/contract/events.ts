// Every event: `noun:past-participle` → payload.
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings.
import type { FolderStatusView } from './folders.js';
import type { CopyingList, ElsewhereView, JobView, PauseView, QueueSnapshot, QueueStats } from './queue.js';
import type { SelectsChangedView } from './selects.js';
import type { SettingsView } from './settings.js';
import type { TranscriptChangedView } from './transcripts.js';
import type { AppInfo } from './usage.js';

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
  /** The files still being copied into watch folders (count + first few), at most 4 times a second. */
  'queue:copying-changed': CopyingList;
  /** Files of shared folders other computers are processing (a few names per computer), at most 4 times a second. */
  'queue:elsewhere-changed': ElsewhereView[];
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
  /** A list of selects was changed by this Sluice (any window). */
  'selects:changed': SelectsChangedView;
}

export type EventName = keyof Events;
