// In-memory streams of the sandbox (one tenant per sandbox). Records advance lazily through their
// precomputed timeline on every read (lifecycle.ts), so the only timers are export waits, which
// are unref'd and released on close.
import { SANDBOX } from '../service/policy.js';
import type { TemplateSpec } from '../service/templates.js';
import type { StreamComponentsDto, StreamConfigurationDto, StreamDto, StreamState } from '../service/types.js';
import { llmHasWork } from './export-result.js';
import * as lc from './lifecycle.js';
import { displayLink } from './link-fetch.js';
import type { MediaInfo } from './media-probe.js';
import type { Props } from './processor-defaults.js';
import type { SandboxProfile } from './profile.js';

export interface StreamRecord {
  seq: number;
  streamId: string;
  name: string;
  groupId: string;
  template: TemplateSpec;
  properties: Props[];
  configuration: StreamConfigurationDto;
  createdAt: number;
  persisted: boolean;
  lifecycle: lc.Lifecycle;
  bytesReceived: number;
  /** Seed of the simulated results: the SHA-256 of the body. */
  contentHash: string | null;
  media: MediaInfo | null;
  /** Simulated processing time (ms), known once the media was probed. */
  processingMs: number;
  egressBytes: number;
}

export interface Timing {
  speedFactor: number;
  fixedProcessingMs: number | undefined;
  retentionMs: number;
  /** The realistic profile's queue delay and processing time (profile.ts); null: duration × speed factor. */
  profile?: SandboxProfile | null;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export class StreamStore {
  private readonly streams = new Map<string, StreamRecord>();
  private seq = 0;
  private readonly waiters = new Set<() => void>();
  private closed = false;
  /** Called (once per turn of the event loop) after a stream was added or changed state. */
  onChange: (() => void) | null = null;
  private changeQueued = false;

  constructor(
    readonly now: () => number,
    private readonly timing: Timing,
  ) {}

  has(id: string): boolean {
    return this.streams.has(id);
  }

  add(rec: Omit<StreamRecord, 'seq'>): StreamRecord {
    const full = { ...rec, seq: this.seq++ };
    this.streams.set(rec.streamId, full);
    this.changed();
    return full;
  }

  /** The record advanced to now (undefined when unknown). */
  get(id: string): StreamRecord | undefined {
    const rec = this.streams.get(id);
    if (!rec) return undefined;
    const next = lc.advance(rec.lifecycle, this.now(), this.timing.retentionMs);
    if (next !== rec.lifecycle) {
      rec.lifecycle = next;
      this.changed();
    }
    return rec;
  }

  /** Newest first (C13); ties broken by creation order. */
  all(): StreamRecord[] {
    return [...this.streams.keys()]
      .map((id) => this.get(id) as StreamRecord)
      .sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq);
  }

  countInState(state: StreamState): number {
    let n = 0;
    for (const id of this.streams.keys()) if (this.get(id)?.lifecycle.state === state) n++;
    return n;
  }

  update(id: string, f: (l: lc.Lifecycle) => lc.Lifecycle): StreamRecord | undefined {
    const rec = this.get(id);
    if (rec) {
      rec.lifecycle = f(rec.lifecycle);
      this.changed();
    }
    return rec;
  }

  /**
   * Body received and probed: plan the timeline (C24). Non-media, empty bodies and links that
   * could not be fetched fail the first processor (§9.5); an injected failure fails the chosen one.
   */
  startProcessing(
    id: string,
    media: MediaInfo,
    receivedAt: number,
    injected: { processor?: string; internalErrorName: string; detail: string } | null,
  ): void {
    const rec = this.get(id);
    if (!rec || rec.lifecycle.state !== 'READY') return;
    rec.media = media;
    const ids = rec.lifecycle.processors.map((p) => p.processorId);
    const first = ids[0] ?? 'transcriber';
    const durationMs = media.kind === 'media' ? media.durationMs : 0;
    const profile = this.timing.profile ?? null;
    const totalMs = Math.max(
      SANDBOX.minProcessingMs,
      this.timing.fixedProcessingMs ??
        profile?.processingMs(id, durationMs) ??
        Math.round(durationMs * this.timing.speedFactor),
    );
    const startAt = receivedAt + (profile?.queueDelayMs(id) ?? 0);
    rec.processingMs = totalMs;
    let failure: { processorId: string; description: string } | undefined;
    const echo = first === 'echo';
    if (media.kind === 'empty' || (media.kind === 'invalid' && !echo)) {
      failure = {
        processorId: first,
        description: `[InternalErrorName.PROCESSOR_TRANSCODING_ERROR] JobFailedException: ${media.kind === 'empty' ? 'No data received. ' : ''}Invalid data found when processing input`,
      };
    } else if (media.kind === 'link-failed' && !echo) {
      failure = {
        processorId: first,
        description: media.notMedia
          ? `[InternalErrorName.PROCESSOR_TRANSCODING_ERROR] JobFailedException: Invalid data found when processing input (${media.reason}: ${displayLink(media.url)})`
          : `[InternalErrorName.PROCESSOR_TRANSCODING_ERROR] MediaFetchException: could not fetch ${displayLink(media.url)}: ${media.reason}`,
      };
    } else if (injected) {
      const target = injected.processor !== undefined && ids.includes(injected.processor) ? injected.processor : first;
      failure = {
        processorId: target,
        description: `[InternalErrorName.${injected.internalErrorName}] ${injected.detail}`,
      };
    }
    const idle = new Set<string>();
    if (ids.includes('llm') && !llmHasWork(rec.template, rec.properties)) idle.add('llm');
    rec.lifecycle = lc.plan(rec.lifecycle, { startAt, totalMs, idle, failure });
    this.changed();
    this.wakeWaiters();
  }

  /** Resolves when the stream left READY, or after `maxMs` / on close, with the advanced record. */
  async waitWhileReady(id: string, maxMs: number): Promise<StreamRecord | undefined> {
    const deadline = this.now() + maxMs;
    for (;;) {
      const rec = this.get(id);
      if (!rec || rec.lifecycle.state !== 'READY' || this.closed) return rec;
      const left = deadline - this.now();
      if (left <= 0) return rec;
      const next = lc.nextChangeAt(rec.lifecycle);
      // Until the media is probed there is no timeline: re-check soon.
      const wait = Math.max(1, Math.min(left, next === null ? 25 : next - this.now() + 1));
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, wait);
        timer.unref();
        this.waiters.add(done);
      });
    }
  }

  private changed(): void {
    if (this.changeQueued || !this.onChange) return;
    this.changeQueued = true;
    queueMicrotask(() => {
      this.changeQueued = false;
      this.onChange?.();
    });
  }

  private wakeWaiters(): void {
    for (const w of [...this.waiters]) w();
  }

  close(): void {
    this.closed = true;
    this.wakeWaiters();
  }
}

export function toStreamDto(rec: StreamRecord): StreamDto {
  const l = rec.lifecycle;
  return {
    streamId: rec.streamId,
    name: rec.name,
    groupId: rec.groupId,
    configuration: rec.configuration,
    createdTimestamp: iso(rec.createdAt),
    creatorId: SANDBOX.creatorId,
    groupCreatorId: SANDBOX.creatorId,
    state: l.state,
    stateDescription: l.description,
    finalizedTimestamp: l.finalizedAt === null ? null : iso(l.finalizedAt),
  };
}

export function toComponentsDto(rec: StreamRecord): StreamComponentsDto {
  const l = rec.lifecycle;
  return {
    streamId: rec.streamId,
    groupId: rec.groupId,
    state: l.state,
    stateDescription: l.description,
    stateChangedTimestamp: iso(l.stateChangedAt),
    gateway: { state: l.gateway.state, stateChangedTimestamp: iso(l.gateway.changedAt) },
    processors: l.processors.map((p) => ({
      processorId: p.processorId,
      state: p.state,
      stateChangedTimestamp: iso(p.changedAt),
      stateDescription: p.description,
    })),
  };
}
