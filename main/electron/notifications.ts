// Desktop notifications, batched by NoticeBatcher: one per batch of completions, one per burst of
// failures. A click brings the window up on that job. Each notification is kept until it closes:
// Electron holds it weakly, and a collected one loses its click handler.
import { Notification } from 'electron';
import type { EventHub } from '../ipc/event-stream.js';
import { NoticeBatcher } from './notice-batcher.js';

export interface Notices {
  /** Notifications shown and not yet closed (each one is held until then). */
  readonly open: number;
  stop(): void;
}

export function startNotifications(events: EventHub, onClick: (jobId: string) => void): Notices {
  if (!Notification.isSupported()) return { open: 0, stop: () => undefined };
  const batcher = new NoticeBatcher();
  const shown = new Set<Notification>();
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
      shown.add(note);
      const forget = (): boolean => shown.delete(note);
      note.on('click', () => {
        forget();
        onClick(n.jobId);
      });
      note.on('close', forget);
      note.on('failed', forget);
      note.show();
    }
  }, 1000);
  return {
    get open() {
      return shown.size;
    },
    stop: () => {
      clearInterval(timer);
      sub.close();
      shown.clear();
    },
  };
}
