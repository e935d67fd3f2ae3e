// How a stream started elsewhere (another machine, the API) shows among our jobs: the job state
// its stream state reads as, so History lists, filters and sorts both kinds by one state.
import type { StreamState } from '../service/types.js';
import type { JobState } from './job.js';

export const STREAM_TO_JOB: Readonly<Record<StreamState, JobState>> = {
  READY: 'processing',
  COMPLETED: 'completed',
  FAILED: 'failed',
  EXPIRED: 'expired',
};

/** The stream states that read as any of `states` (none: no stream can match that filter). */
export function streamStatesFor(states: readonly JobState[]): StreamState[] {
  return states.flatMap((s) => (Object.keys(STREAM_TO_JOB) as StreamState[]).filter((k) => STREAM_TO_JOB[k] === s));
}
