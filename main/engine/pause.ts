// When the queue pauses and what it says: a network or timeout failure means the service cannot be
// reached, so the whole queue waits (offline) instead of each job failing on its own; a credentials
// refusal or the account's usage limit pause it as the reducer decides (reducer-upload/-tracking).
import type { ServiceErrorKind } from '../service/errors.js';
import type { PauseReason } from './job.js';

/** What a failed service call does to the queue: go offline (with the words to show), or nothing. */
export function failureEffect(error: { kind: ServiceErrorKind; message: string }): { offline: string } | undefined {
  if (error.kind !== 'network' && error.kind !== 'timeout') return undefined;
  return {
    offline: `The service cannot be reached (${error.message}). The queue resumes by itself when it answers again.`,
  };
}

/** The words of a pause the reducer decided, around the service's own detail. */
export function pauseMessage(reason: PauseReason, detail: string): string {
  return reason === 'credentials'
    ? `The service refused Sluice's credentials (${detail}). Check the API key in Settings; the queue resumes once it is fixed.`
    : `The account's usage limit was reached (${detail}). New uploads wait and are retried later.`;
}
