// What the queue runner is given (the service's calls, where exports go, how to write results)
// and the pause it reports: the runner's ports, apart from the runner that uses them.
import type { ExportOutcome } from '../../api/export.js';
import type { StreamComponentsDto, StreamDto, StreamUsageDto } from '../../service/types.js';
import type { EngineEvent, QueuePauseReason } from '../../engine/events.js';
import type { JobRecord, ResultFile } from '../../engine/job.js';
import type { EngineContext } from '../../engine/reducer.js';
import type { SchedulerLimits } from '../../engine/scheduler.js';
import type { JobStore } from '../store/journal/job-store.js';
import type { UploadPort } from './uploader.js';

export interface ServicePort extends UploadPort {
  findStream(streamId: string): Promise<StreamDto>;
  listReady(): Promise<StreamDto[]>;
  cancelStream(streamId: string): Promise<{ stream: StreamDto }>;
  streamComponents(streamId: string): Promise<StreamComponentsDto>;
  streamUsage(streamId: string): Promise<StreamUsageDto>;
  exportJson(streamId: string): Promise<ExportOutcome>;
  testConnection(): Promise<void>;
}

export interface RunnerOptions {
  store: JobStore<JobRecord>;
  service: ServicePort;
  /** Exports are kept here (`<jobId>.json`) so results can be written again without re-processing. */
  exportsDir: string;
  limits: SchedulerLimits;
  emit: (e: EngineEvent) => void;
  writeResults: (job: JobRecord, exportPath: string) => Promise<readonly ResultFile[]>;
  /** Called when a job reaches a terminal state (post-actions, notifications). */
  onSettled?: (job: JobRecord) => void;
  /** The finished file was renamed or moved (`sourceMoved`): its results name the media by its old path. */
  onMoved?: (job: JobRecord) => void;
  ctx?: EngineContext;
  now?: () => number;
  exportConcurrency?: number;
  /** Tracking cycle while uploads wait for a free stream slot (default HUNGRY_POLL_MS). */
  hungryPollMs?: number;
  /** How often a journal that could not be written is tried again (default 2 s). */
  storageRetryMs?: number;
  /**
   * Whether the job's watch folder is away now (looked at on disk): its upload and results wait
   * instead of failing, and nothing is written where the folder was (folder-presence.ts).
   */
  folderAway?: (job: JobRecord) => Promise<boolean>;
}

export interface PauseState {
  reason: QueuePauseReason;
  message: string;
  until?: number;
}
