// Desktop notifications, batched by NoticeBatcher: one per batch of completions, one per burst of
// failures. A click brings the window up on that job.
import { Notification } from 'electron';
import type { EventHub } from '../ipc/event-stream.js';
import { NoticeBatcher } from './notice-batcher.js';

export function startNotifications(events: EventHub, onClick: (jobId: string) => void): () => void {
  if (!Notification.isSupported()) return () => undefined;
  const batcher = new NoticeBatcher();
  const sub = events.subscribe(
    (e) => {
      if (e.name === 'job:added' || e.name === 'job:updated') batcher.observe(e.payload, Date.now());
      else if (e.name === 'queue:snapshot-changed') for (const j of e.payload.jobs) batcher.observe(j, Date.now());
      else if (e.name === 'job:removed') batcher.forget(e.payload.id);
    },
    { ready: true },
  );
  const timer = setInterval(() => {
    for (const n of batcher.take(Date.now())) {
      const note = new Notification({ title: n.title, body: n.body, silent: n.kind === 'completed' });
      note.on('click', () => onClick(n.jobId));
      note.show();
    }
  }, 1000);
  return () => {
    clearInterval(timer);
    sub.close();
  };
}
