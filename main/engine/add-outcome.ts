// What adding a file already known does (Rescan, a drop, `sluice process` of the same folder again).
import type { DetectionDecision } from './file-identity.js';
import { isTerminal, type JobState } from './job.js';

/**
 * Given the file's identity decision and its newest job's state: nothing while that job runs or
 * after it completed; a failed, canceled or expired one is retried when added by hand
 * (`retryFailed`), and left alone when a watch folder reports it again. Undefined: a new job
 * (the file is new or changed, or `force` asks for it again).
 */
export function addOutcome(
  decision: DetectionDecision,
  current: { state: JobState } | undefined,
  opts: { force: boolean; retryFailed: boolean },
): 'already-queued' | 'already-done' | 'retried' | undefined {
  if (decision.kind !== 'unchanged' || !current || opts.force) return undefined;
  if (!isTerminal(current.state)) return 'already-queued';
  if (current.state === 'completed') return 'already-done';
  return opts.retryFailed ? 'retried' : 'already-done';
}
