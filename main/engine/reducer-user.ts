// Transitions the user asks for that change a record but not its lifecycle: its place in the
// queue, whether the Queue screen shows it, and where its files are now. Each applies only when
// the action is eligible (eligibility.ts); otherwise the job stays as it was.
import { canDismiss, canMove, canRewrite } from './eligibility.js';
import type { JobEvent, JobRecord, Transition } from './job.js';
import { to, unchanged, without } from './reducer-shared.js';
import { movedFromAfter } from './source-path.js';

type Event<T extends JobEvent['type']> = Extract<JobEvent, { type: T }>;

export function onReordered(job: JobRecord, e: Event<'reordered'>, now: number): Transition {
  if (!canMove(job) || (job.priority === e.priority && job.seq === e.seq)) return unchanged(job);
  return to(job, { priority: e.priority, seq: e.seq }, now);
}

export function onDismissRequested(job: JobRecord, now: number): Transition {
  return canDismiss(job) && job.dismissed !== true ? to(job, { dismissed: true }, now) : unchanged(job);
}

/** The results on disk are whole again: a warning about the last write no longer holds. */
export function onResultsRewritten(job: JobRecord, e: Event<'resultsRewritten'>, now: number): Transition {
  if (!canRewrite(job)) return unchanged(job);
  const fresh = without(job, 'resultWarning', 'stagedResultPath');
  return to(fresh, { results: e.results, ...(e.output ? { output: e.output } : {}) }, now);
}

export function onSourceMoved(job: JobRecord, e: Event<'sourceMoved'>, now: number): Transition {
  if (job.state !== 'completed' && job.state !== 'failed') return unchanged(job);
  const placed = e.place ? { ...without(job, 'resultsDir', 'resultsBelow'), ...e.place } : job;
  const movedFrom = movedFromAfter(job, e.movedTo);
  return to(placed, { movedTo: e.movedTo, results: e.results, ...(movedFrom.length > 0 ? { movedFrom } : {}) }, now);
}
