// Engine events → bridge events, for any number of subscribers (one Electron window, several
// browser tabs). Job changes are gathered and flushed at most every 100 ms, newest state winning,
// so a job produces ≤ 10 events a second (each flush ends with the queue's numbers); a flush touching more than `bulkThreshold` jobs sends one
// `queue:snapshot-changed` instead of thousands of job events. Each subscriber buffers until its
// renderer says it is ready (Electron's listeners attach after the page loads). Files still copying
// into watch folders go out as a count plus the first few, at most every `copyingIntervalMs`, so a
// card dump's bytes on the stream do not grow with the square of its files.
import type { EventName, Events } from '../../preload/contract.js';
import type { EngineEvent } from '../engine/events.js';
import { isTerminal } from '../engine/job.js';
import type { Services } from '../runtime/services.js';
import type { QueueModel } from './queue-model.js';
import { folderStatusView, resultView } from './views.js';

export type BridgeEvent = { [E in EventName]: { name: E; payload: Events[E] } }[EventName];
export type EventSink = (e: BridgeEvent) => void;

export interface EventHubOptions {
  flushIntervalMs?: number;
  bulkThreshold?: number;
  statsIntervalMs?: number;
  /** Events a subscriber may hold before it is ready; past that, job events collapse into one snapshot. */
  maxBuffered?: number;
  /** Least time between two `queue:copying-changed` (and `queue:elsewhere-changed`) events. */
  copyingIntervalMs?: number;
}

export interface Subscription {
  ready(): void;
  close(): void;
}

const QUEUE_EVENTS = new Set<EventName>([
  'job:added',
  'job:updated',
  'job:removed',
  'queue:snapshot-changed',
  'queue:stats-changed',
]);

class Subscriber {
  private buffer: BridgeEvent[] = [];
  private isReady = false;
  private snapshotDue = false;

  constructor(
    private readonly sink: EventSink,
    private readonly hub: EventHub,
    private readonly maxBuffered: number,
  ) {}

  send(e: BridgeEvent): void {
    if (this.isReady) return this.sink(e);
    if (this.snapshotDue && QUEUE_EVENTS.has(e.name)) return;
    this.buffer.push(e);
    if (this.buffer.length > this.maxBuffered) {
      this.buffer = this.buffer.filter((b) => !QUEUE_EVENTS.has(b.name));
      this.snapshotDue = true;
    }
  }

  ready(): void {
    if (this.isReady) return;
    this.isReady = true;
    const held = this.buffer;
    this.buffer = [];
    for (const e of held) this.sink(e);
    if (this.snapshotDue) this.sink({ name: 'queue:snapshot-changed', payload: this.hub.model.snapshot() });
    this.snapshotDue = false;
  }
}

export class EventHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly dirty = new Map<string, 'added' | 'updated' | 'removed'>();
  private flushTimer: NodeJS.Timeout | undefined;
  private statsTimer: NodeJS.Timeout | undefined;
  private copyingTimer: NodeJS.Timeout | undefined;
  private lastCopyingAt = 0;
  private elsewhereTimer: NodeJS.Timeout | undefined;
  private lastElsewhereAt = 0;
  private lastFlushAt = 0;
  private lastStatsAt = 0;
  private readonly off: () => void;
  private readonly o: Required<EventHubOptions>;

  constructor(
    private readonly services: Pick<Services, 'on' | 'queue' | 'settings' | 'folders'>,
    readonly model: QueueModel,
    opts: EventHubOptions = {},
  ) {
    this.o = {
      flushIntervalMs: 100,
      bulkThreshold: 200,
      statsIntervalMs: 1000,
      maxBuffered: 2000,
      copyingIntervalMs: 250,
      ...opts,
    };
    this.off = services.on((e) => this.onEngine(e));
  }

  /** Adds a subscriber; with `ready: true` it receives at once (a browser tab that just connected). */
  subscribe(sink: EventSink, opts: { ready?: boolean } = {}): Subscription {
    const sub = new Subscriber(sink, this, this.o.maxBuffered);
    this.subscribers.add(sub);
    if (opts.ready) sub.ready();
    return { ready: () => sub.ready(), close: () => void this.subscribers.delete(sub) };
  }

  /** Events that do not come from the engine (settings saved, connection changed, navigation). */
  publish(e: BridgeEvent): void {
    this.flush();
    this.broadcast(e);
  }

  private broadcast(e: BridgeEvent): void {
    for (const s of this.subscribers) {
      try {
        s.send(e);
      } catch {
        // A window that went away mid-send: its transport unsubscribes it.
      }
    }
  }

  private onEngine(e: EngineEvent): void {
    switch (e.type) {
      case 'job:added':
      case 'job:updated': {
        this.model.observe(e.job);
        const was = this.dirty.get(e.job.id);
        this.dirty.set(e.job.id, was === 'added' || e.type === 'job:added' ? 'added' : 'updated');
        this.scheduleFlush();
        return;
      }
      case 'job:removed':
        this.dirty.set(e.id, 'removed');
        this.scheduleFlush();
        return;
      case 'queue:paused':
        this.publish({
          name: 'queue:paused',
          payload: { reason: e.reason, message: e.message, ...(e.until ? { until: e.until } : {}) },
        });
        this.scheduleStats();
        return;
      case 'queue:resumed':
        this.publish({ name: 'queue:resumed', payload: {} });
        this.scheduleStats();
        return;
      case 'transcript:changed': {
        const job = this.services.queue.job(e.jobId);
        this.publish({
          name: 'transcript:changed',
          payload: {
            jobId: e.jobId,
            revision: e.revision,
            results: (job?.results ?? []).map(resultView),
            ...(e.problem ? { resultWarning: e.problem } : {}),
          },
        });
        return;
      }
      case 'copies:changed':
        this.scheduleCopying();
        return;
      case 'claims:changed':
        this.scheduleElsewhere();
        return;
      case 'folder:skipped':
        // The window shows the folder's status, not each file it looked at and left.
        return;
      case 'folder:status': {
        const folder = this.services.settings.get().watchFolders.find((f) => f.id === e.folderId);
        const status = this.services.folders.statuses().find((s) => s.folderId === e.folderId);
        this.publish({
          name: 'folder:status-changed',
          payload: folderStatusView(
            {
              folderId: e.folderId,
              state: e.status,
              since: status?.since ?? Date.now(),
              ...(e.message ? { message: e.message } : {}),
              ...(status?.fileCount !== undefined ? { fileCount: status.fileCount } : {}),
              // A status change keeps the last Rescan's summary: the folder's row goes on showing it.
              ...(status?.lastRescan ? { lastRescan: status.lastRescan } : {}),
              ...(status?.cardSkips ? { cardSkips: status.cardSkips } : {}),
              ...(status?.skips ? { skips: status.skips } : {}),
            },
            folder?.path ?? e.folderId,
          ),
        });
        return;
      }
      case 'folder:skips-changed': {
        // The folder's list of files it left changed: its status as it is, with the list.
        const folder = this.services.settings.get().watchFolders.find((f) => f.id === e.folderId);
        const status = this.services.folders.statuses().find((s) => s.folderId === e.folderId);
        if (status)
          this.publish({
            name: 'folder:status-changed',
            payload: folderStatusView(status, folder?.path ?? e.folderId),
          });
        return;
      }
    }
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    const wait = Math.max(0, this.lastFlushAt + this.o.flushIntervalMs - Date.now());
    this.flushTimer = setTimeout(() => this.flush(), wait);
    this.flushTimer.unref();
  }

  /** Sends what changed since the last flush (also called before any other event, to keep order). */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.dirty.size === 0) return;
    this.lastFlushAt = Date.now();
    const changes = [...this.dirty];
    this.dirty.clear();
    if (changes.length > this.o.bulkThreshold) {
      this.broadcast({ name: 'queue:snapshot-changed', payload: this.model.snapshot() });
    } else {
      for (const [id, kind] of changes) {
        const job = kind === 'removed' ? undefined : this.services.queue.job(id);
        if (!job || (job.dismissed && isTerminal(job.state))) {
          this.broadcast({ name: 'job:removed', payload: { id } });
        } else {
          this.broadcast({ name: kind === 'added' ? 'job:added' : 'job:updated', payload: this.model.view(job) });
        }
      }
    }
    // The numbers follow the jobs in the same flush, so the header and the rows never disagree.
    clearTimeout(this.statsTimer);
    this.statsTimer = undefined;
    this.lastStatsAt = Date.now();
    this.broadcast({ name: 'queue:stats-changed', payload: this.model.stats() });
  }

  private scheduleStats(): void {
    if (this.statsTimer) return;
    const wait = Math.max(0, this.lastStatsAt + this.o.statsIntervalMs - Date.now());
    this.statsTimer = setTimeout(() => {
      this.statsTimer = undefined;
      this.lastStatsAt = Date.now();
      this.broadcast({ name: 'queue:stats-changed', payload: this.model.stats() });
    }, wait);
    this.statsTimer.unref();
  }

  /** The first change goes out at once, later ones gather until the interval has passed (newest wins). */
  private scheduleCopying(): void {
    if (this.copyingTimer) return;
    const wait = Math.max(0, this.lastCopyingAt + this.o.copyingIntervalMs - Date.now());
    const send = (): void => {
      this.copyingTimer = undefined;
      this.lastCopyingAt = Date.now();
      this.publish({ name: 'queue:copying-changed', payload: this.model.copying() });
    };
    if (wait === 0) return send();
    this.copyingTimer = setTimeout(send, wait);
    this.copyingTimer.unref();
  }

  /** Held like the copying list: at most one event per interval, carrying the newest groups. */
  private scheduleElsewhere(): void {
    if (this.elsewhereTimer) return;
    const wait = Math.max(0, this.lastElsewhereAt + this.o.copyingIntervalMs - Date.now());
    const send = (): void => {
      this.elsewhereTimer = undefined;
      this.lastElsewhereAt = Date.now();
      this.publish({ name: 'queue:elsewhere-changed', payload: this.model.elsewhere() });
    };
    if (wait === 0) return send();
    this.elsewhereTimer = setTimeout(send, wait);
    this.elsewhereTimer.unref();
  }

  close(): void {
    this.off();
    clearTimeout(this.flushTimer);
    clearTimeout(this.statsTimer);
    clearTimeout(this.copyingTimer);
    clearTimeout(this.elsewhereTimer);
    this.subscribers.clear();
  }
}
