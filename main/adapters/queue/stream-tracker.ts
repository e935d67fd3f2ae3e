// Tracking of streams in flight (§15.3): instead of one GET per stream and poll, each due cycle
// lists the account's READY streams once (paged, 100 a page) and reads by id only the tracked
// streams that are missing from that listing (they left READY: completed, failed or expired).
import type { StreamDto } from '../../service/types.js';

/** Below this many due streams, reading each by id is cheaper than listing every READY stream. */
export const LIST_THRESHOLD = 4;

export interface TrackerPort {
  findStream(streamId: string): Promise<StreamDto>;
  /** Every READY stream of the account, all pages. */
  listReady(): Promise<StreamDto[]>;
}

export type PollOutcome = { streamId: string; stream: StreamDto } | { streamId: string; error: unknown };

/**
 * One polling cycle over the due stream ids. Results come back per stream so one failing read
 * never hides the others. When the listing itself fails, every due stream reports that error.
 */
export async function pollCycle(port: TrackerPort, due: readonly string[]): Promise<PollOutcome[]> {
  if (due.length < LIST_THRESHOLD) return readEach(port, due);
  let ready: Map<string, StreamDto>;
  try {
    ready = new Map((await port.listReady()).map((s) => [s.streamId, s]));
  } catch (error) {
    return due.map((streamId) => ({ streamId, error }));
  }
  const outcomes: PollOutcome[] = [];
  const missing: string[] = [];
  for (const id of due) {
    const s = ready.get(id);
    if (s) outcomes.push({ streamId: id, stream: s });
    else missing.push(id);
  }
  // These are the streams that just finished: read them together, since each one that waits holds
  // a stream slot other uploads may be waiting for.
  outcomes.push(...(await readEach(port, missing)));
  return outcomes;
}

/** Each stream read by id, 32 at a time at most. */
export async function readEach(port: TrackerPort, ids: readonly string[]): Promise<PollOutcome[]> {
  const byId = async (streamId: string): Promise<PollOutcome> => {
    try {
      return { streamId, stream: await port.findStream(streamId) };
    } catch (error) {
      return { streamId, error };
    }
  };
  const outcomes: PollOutcome[] = [];
  for (let i = 0; i < ids.length; i += 32) outcomes.push(...(await Promise.all(ids.slice(i, i + 32).map(byId))));
  return outcomes;
}

/** The shortest gap between two listings while uploads wait for a stream slot. */
export const HUNGRY_POLL_MS = 100;

/**
 * How long recent streams took, from being tracked to being found finished: the last
 * `TOOK_SAMPLES` of them. When they agree (the longest within `TOOK_SPREAD` × the shortest), as
 * a card of like clips does, a stream tracked at t is expected to finish no sooner than t plus
 * the shortest: a hungry queue lists then rather than at the end of a gap that grew while the
 * streams were young (measured: 300 streams of 4 s through 100 slots, a finished stream waited
 * 245 ms on average, 6 % of its processing, mostly at the start of each wave). Each stream brings
 * on at most one such listing: one still READY at its expected time is not expected again.
 */
export const TOOK_SAMPLES = 32;
export const TOOK_SPREAD = 1.5;

/** The least time a stream is expected to take, or undefined while recent ones disagree. */
export function expectedTook(took: readonly number[]): number | undefined {
  if (took.length < TOOK_SAMPLES / 4) return undefined;
  let min = Infinity;
  let max = 0;
  for (const t of took) {
    min = Math.min(min, t);
    max = Math.max(max, t);
  }
  return max <= min * TOOK_SPREAD ? min : undefined;
}

/**
 * The gap between listings follows what they find rather than when each stream falls due: a
 * listing serves every tracked stream, so asking each time one is due (every second while any is
 * young) lists many times per stream that finishes. The gap aims at about `tracked / 25` streams
 * found finished per listing (at least half a stream, at most four): a slot that frees then waits
 * on average half a gap, about 2 % of its stream's processing, to be noticed. A listing finding
 * nothing widens the gap by half; one finding more than the aim narrows it (at most by half).
 */
export function nextListGap(
  gap: number,
  finished: number,
  tracked: number,
  bounds: { min: number; max: number },
): number {
  const aim = Math.min(4, Math.max(0.5, tracked / 25));
  const factor = finished === 0 ? 1.5 : Math.min(1.5, Math.max(0.5, aim / finished));
  return Math.min(bounds.max, Math.max(bounds.min, gap * factor));
}

export interface StreamTrackerOptions {
  port: TrackerPort;
  /** The stream a job is tracking now (undefined once the job moved on). */
  streamIdOf: (jobId: string) => string | undefined;
  onPolled: (jobId: string, stream: StreamDto) => void;
  onFailed: (jobId: string, error: unknown) => void;
  now?: () => number;
  hungryPollMs?: number;
  /** Least time between two listings while no upload waits (default: the shortest polling interval, 1 s). */
  minListIntervalMs?: number;
  /** Most time between two listings (default: the longest polling interval, 30 s). */
  maxListIntervalMs?: number;
}

/**
 * The streams in flight and when each is next due (the reducer's per-stream backoff). One cycle at
 * a time, one timer. With few streams the due ones are read by id; with many, one READY listing
 * covers every tracked stream, those that left READY are read by id, and a stream still READY
 * keeps its own backoff unless it was due anyway. Listings come no closer than the gap
 * (`nextListGap`); while uploads wait for a slot they come at the gap even if no stream is due.
 * Streams that take alike are also read by id when each is expected to have finished (a listing
 * instead when `LIST_THRESHOLD` of them are expected at once).
 */
export class StreamTracker {
  private readonly due = new Map<string, number>();
  /** When each job was first tracked: its stream has processed at least this long. */
  private readonly since = new Map<string, number>();
  /**
   * Streams found still READY after their expected time: when that was, and the gap before the
   * next read. Each is read again at gaps growing by half from the floor, up to its own backoff: one
   * still READY at its expected time waited for its whole backoff (measured: 1,000 like streams of
   * 4 s, the last ones noticed 600–800 ms after they finished).
   */
  private readonly overdue = new Map<string, { readAt: number; gap: number }>();
  /**
   * When the service created each tracked stream, by its own clock (the upload's answer). A stream
   * is expected at its creation plus `clockLag` plus `expected`, both learnt from earlier streams:
   * the time it was tracked is later than its creation by however long its upload's answer waited
   * for the thread, 0–40 ms in a busy wave, and streams expected from it were read too early or
   * too late by as much.
   */
  private readonly created = new Map<string, number>();
  /** How far this clock was ahead of the service's as each of the last streams' answers were read (ring). */
  private readonly lags: number[] = [];
  private lagNext = 0;
  /** The least of `lags`: the service's clock on this one, give or take the quickest answer. */
  private clockLag: number | undefined;
  /** How long the last streams took (ring of `TOOK_SAMPLES`): the service's own times where it gave them. */
  private readonly took: number[] = [];
  private tookNext = 0;
  /** `expectedTook` of the ring, kept as each stream finishes. */
  private expected: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private polling = false;
  private hungry = false;
  private held = false;
  private stopped = false;
  private lastListAt = -Infinity;
  private listGap: number;
  private readonly now: () => number;

  constructor(private readonly o: StreamTrackerOptions) {
    this.now = o.now ?? Date.now;
    this.listGap = this.floor();
  }

  /** The least gap between two listings now: short while uploads wait for a slot, else longer. */
  private floor(): number {
    const hungry = this.o.hungryPollMs ?? HUNGRY_POLL_MS;
    const took = this.expected;
    // Streams expected to take about the same time finish in waves: while a wave finishes, a
    // waiting upload gets its slot within about 1 % of that time (half the hungry floor at least).
    if (this.hungry) return took === undefined ? hungry : Math.max(hungry / 2, Math.min(hungry, took / 80));
    const idle = this.o.minListIntervalMs ?? 1000;
    // Results are noticed within about 2 % of it (the last wave of a card waits for no slot, but
    // its editor waits for its results).
    return took === undefined ? idle : Math.max(hungry / 2, Math.min(idle, took / 50));
  }

  /**
   * The bounds the gap is learnt within: from the hungry floor, whatever the moment. The floor of
   * the moment applies when the next listing is armed. Learnt within that floor, the gap was raised
   * to the idle floor (1 s) each time the queue stopped waiting for a moment: a listing that frees
   * slots makes the queue not hungry while their uploads start, then hungry again, and the gap
   * stayed at 1 s (measured: 1,000 streams of 4 s through 100 slots, 108 listings in 46 s, each
   * finished stream noticed 250 ms after it finished on average).
   */
  private bounds(): { min: number; max: number } {
    const min = this.o.hungryPollMs ?? HUNGRY_POLL_MS;
    return { min, max: Math.max(min, this.o.minListIntervalMs ?? 1000, this.o.maxListIntervalMs ?? 30_000) };
  }

  track(jobId: string, at: number): void {
    this.due.set(jobId, at);
    if (!this.since.has(jobId)) this.since.set(jobId, this.now());
    this.arm();
  }

  untrack(jobId: string): void {
    this.due.delete(jobId);
    this.since.delete(jobId);
    this.overdue.delete(jobId);
    this.created.delete(jobId);
  }

  /** The service's creation time of a job's new stream (its `createdTimestamp`), as its upload was answered. */
  noteCreated(jobId: string, createdTimestamp: string | null | undefined): void {
    const at = createdTimestamp ? Date.parse(createdTimestamp) : NaN;
    if (Number.isNaN(at)) return;
    this.created.set(jobId, at);
    this.lags[this.lagNext] = this.now() - at;
    this.lagNext = (this.lagNext + 1) % TOOK_SAMPLES;
    this.clockLag = Math.min(...this.lags);
  }

  get size(): number {
    return this.due.size;
  }

  /** Uploads wait for a free stream slot: every moment a finished stream goes unnoticed is lost. */
  setHungry(hungry: boolean): void {
    if (hungry === this.hungry) return;
    this.hungry = hungry;
    if (hungry) this.arm();
  }

  /** Offline: nothing is read until `release`, which checks every tracked stream at once. */
  hold(): void {
    this.held = true;
  }

  release(): void {
    this.held = false;
    this.lastListAt = -Infinity;
    const now = this.now();
    for (const id of this.due.keys()) this.due.set(id, now);
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    if (this.stopped || this.held || this.polling) return;
    let at = Infinity;
    for (const t of this.due.values()) if (t < at) at = t;
    if (at === Infinity) return;
    // A listing already checked every tracked stream: the next one waits for the gap, however many
    // streams fall due in between (their count does not add requests).
    if (this.due.size >= LIST_THRESHOLD) {
      const next = this.lastListAt + Math.max(this.floor(), this.listGap);
      at = this.hungry ? next : Math.max(at, next);
    }
    // Streams that take alike are read by id when each is expected to have finished (see `overdue`).
    at = Math.min(at, this.expectedNext());
    if (at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => void this.cycle(), Math.max(0, at - this.now()));
    this.timer.unref?.();
  }

  /** A listing is due: uploads wait for a slot, or a stream's backoff came, and the gap has passed. */
  private listingDue(now: number, tracked: ReadonlyArray<{ at: number }>): boolean {
    if (now < this.lastListAt + Math.max(this.floor(), this.listGap)) return false;
    return this.hungry || tracked.some((t) => t.at <= now);
  }

  /** When the first tracked stream is expected to finish (Infinity: none, or no expectation). */
  private expectedNext(): number {
    if (this.expected === undefined) return Infinity;
    let first = Infinity;
    for (const id of this.since.keys()) first = Math.min(first, this.expectedAt(id));
    return first;
  }

  /** When a stream is next expected to have finished: see `overdue`. */
  private expectedAt(jobId: string): number {
    const took = this.expected;
    const since = this.since.get(jobId);
    if (took === undefined || since === undefined) return Infinity;
    const late = this.overdue.get(jobId);
    if (late) return late.readAt + late.gap;
    const created = this.created.get(jobId);
    return (created === undefined || this.clockLag === undefined ? since : created + this.clockLag) + took;
  }

  private noteFinished(jobId: string, now: number, stream: StreamDto): void {
    const since = this.since.get(jobId);
    const created = this.created.get(jobId);
    this.since.delete(jobId);
    this.overdue.delete(jobId);
    this.created.delete(jobId);
    if (since === undefined) return;
    const finalized = stream.finalizedTimestamp ? Date.parse(stream.finalizedTimestamp) : NaN;
    const byService = created !== undefined && !Number.isNaN(finalized);
    this.took[this.tookNext] = byService ? finalized - created : now - since;
    this.tookNext = (this.tookNext + 1) % TOOK_SAMPLES;
    this.expected = expectedTook(this.took);
  }

  private async cycle(): Promise<void> {
    this.timerAt = Infinity;
    if (this.held || this.stopped) return;
    const now = this.now();
    const tracked: Array<{ id: string; streamId: string; at: number }> = [];
    for (const [id, at] of this.due) {
      const streamId = this.o.streamIdOf(id);
      if (streamId) tracked.push({ id, streamId, at });
      else {
        this.untrack(id);
      }
    }
    const expectedNow = tracked.filter((t) => this.expectedAt(t.id) <= now);
    let listing = false;
    let due = expectedNow;
    if (tracked.length < LIST_THRESHOLD) {
      due = tracked.filter((t) => t.at <= now || this.expectedAt(t.id) <= now);
    } else if (expectedNow.length >= LIST_THRESHOLD || this.listingDue(now, tracked)) {
      listing = true;
      due = tracked;
    }
    if (due.length === 0) {
      this.arm();
      return;
    }
    this.polling = true;
    if (listing) this.lastListAt = now;
    try {
      const ids = due.map((t) => t.streamId);
      const outcomes = listing ? await pollCycle(this.o.port, ids) : await readEach(this.o.port, ids);
      if (listing) {
        const finished = outcomes.filter((o) => 'stream' in o && o.stream.state !== 'READY').length;
        // Nothing found for a while widens the gap, but never past a tenth of how long the oldest
        // stream has processed: when streams of one length all finish at once, the first ones
        // are noticed within about 10 % of their processing, not after a gap grown while waiting.
        const bounds = this.bounds();
        let oldest = now;
        for (const t of tracked) oldest = Math.min(oldest, this.since.get(t.id) ?? now);
        const cap = Math.max(bounds.min, Math.min(bounds.max, (now - oldest) / 10));
        this.listGap = Math.min(cap, nextListGap(this.listGap, finished, tracked.length, bounds));
      }
      // A stream read at or after its expected time is overdue from now on (see `overdue`).
      for (const t of due) {
        if (this.expectedAt(t.id) > now) continue;
        const late = this.overdue.get(t.id);
        this.overdue.set(t.id, { readAt: now, gap: late ? late.gap * 1.5 : this.floor() });
      }
      const byStream = new Map(due.map((t) => [t.streamId, t]));
      for (const o of outcomes) {
        const t = byStream.get(o.streamId);
        if (!t || this.due.get(t.id) !== t.at) continue; // no longer tracked, or re-armed meanwhile
        if ('stream' in o && o.stream.state === 'READY' && t.at > now) continue;
        this.due.delete(t.id);
        if ('stream' in o && o.stream.state !== 'READY') this.noteFinished(t.id, now, o.stream);
        if ('stream' in o) this.o.onPolled(t.id, o.stream);
        else this.o.onFailed(t.id, o.error);
      }
    } finally {
      this.polling = false;
      this.arm();
    }
  }
}
