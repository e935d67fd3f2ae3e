// Literals shared with main (mirrors of its unions; main checks they stay equal).
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings and common/.

// ---- shared literals (mirrors of main's unions; main checks they stay equal) ---------------------

/** A job's states and "in progress" (common/job-states.ts). */
export { ACTIVE_STATES, type JobState } from '../../common/job-states.js';
export type StreamState = 'READY' | 'COMPLETED' | 'FAILED' | 'EXPIRED';
export type GatewayState = 'CONNECTED' | 'DISCONNECTED' | 'CLOSED' | 'ERROR';
export type ProcessorState = 'WAITING' | 'RUNNING' | 'COMPLETED' | 'ERROR' | 'CLOSED';

/** A stream's gateway and processors as the service reports them. */
export interface ComponentsView {
  gateway?: GatewayState;
  processors: Array<{ processorId: string; state: ProcessorState; stateDescription: string | null }>;
}
/** The result formats and those a recipe's answers make: the table in common/formats.ts. */
export type { RecipeFormat, ResultFormat } from '../../common/formats.js';
/** What a file's audio-intelligence layer is asked for (null: the transcript only): common/recipe-choices.ts. */
export type { RecipeId, RecipeRef } from '../../common/recipe-choices.js';
export type ParamValue = string | number | boolean | string[];
export type Params = Record<string, ParamValue>;
export type QueuePauseReason = 'credentials' | 'usage-limit' | 'user' | 'offline' | 'spending-cap' | 'storage';
export type FolderState = 'watching' | 'paused' | 'scanning' | 'unavailable' | 'error' | 'disabled';
export type Granularity = 'HOURS' | 'DAYS' | 'MONTHS';
export type Platform = 'electron' | 'web';

/** One place up or down, or to the top or the bottom of the waiting jobs. */
export type MoveDirection = 'up' | 'down' | 'top' | 'bottom';
