// The Queue list's keys carried out: queue-keys.ts decides which action a key asks for (pure,
// tested alone); this does it to the queue. Only opening the row menu is the screen's, as it needs
// the row's button to hang the menu from.
import type { JobView } from '../../../../preload/contract';
import { queueKeyAction } from './queue-keys';
import { queue } from './queue.svelte';

export function runQueueKey(e: KeyboardEvent, openMenu: (job: JobView) => void): void {
  const job = queue.selected;
  const selected = job && {
    canMove: job.canMove,
    canDismiss: job.canDismiss,
    canRetry: job.canRetry,
    canCancel: job.canCancel,
    hasResult: job.results.length > 0,
  };
  const { action, preventDefault } = queueKeyAction(e, selected ?? null, queue.detailOpen);
  if (preventDefault) e.preventDefault();
  if (!action) return;
  switch (action.kind) {
    case 'select':
      return queue.selectByOffset(action.offset);
    case 'move':
      if (job) void queue.move(job.id, action.to);
      return;
    case 'menu':
      if (job) openMenu(job);
      return;
    case 'undoDismiss':
      if (queue.undoDismiss()) e.preventDefault();
      return;
    case 'detail':
      return queue.openDetail(action.open);
    case 'dismiss':
      if (job) queue.dismiss(job.id);
      return;
    case 'retry':
      if (job) void queue.retry(job.id);
      return;
    case 'cancel':
      if (job) void queue.cancel(job.id);
      return;
    case 'openResult':
      if (job?.results[0]) void queue.openResult(job.id, job.results[0].format);
      return;
    case 'pauseOrResume':
      void (queue.stats?.pause ? queue.resumeAll() : queue.pauseAll());
      return;
  }
}
