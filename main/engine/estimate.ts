// How long the current batch has left: its uploads at the measured throughput, then each file's
// processing at the service's pace (seconds of processing per second of media), learned from the
// files this install has finished. Pure: the clock, the throughput samples and the pace come in.
import type { JobState } from './job.js';

/**
 * The pace assumed before any file has finished: cloud transcription usually needs well under the
 * media's length; half of it errs on the long side, so an estimate shrinks rather than grows.
 */
export const PACE_PRIOR = 0.5;
/** Paces remembered across runs; the median of these is the one used. */
export const PACE_KEPT = 25;
/** One upload's speed is measured over this window: what is moving now, as a row shows it. */
export const SPEED_WINDOW_MS = 10_000;
/** Samples of one upload closer together than this are merged into the newest. */
export const SPEED_SAMPLE_MS = 250;

/**
 * Seconds of processing per second of media, for one finished file; undefined when not measurable.
 * Measured on this machine's clock from the upload's end to the results being saved (what the
 * editor waits for, polling and export included), not from the service's own timestamps, which
 * come from another clock.
 */
export function paceOf(t: { uploadedAt?: number; completedAt?: number; mediaDurationMs?: number }): number | undefined {
  const { uploadedAt, completedAt, mediaDurationMs } = t;
  if (uploadedAt === undefined || completedAt === undefined || mediaDurationMs === undefined) return undefined;
  // Files under a second say more about the service's fixed overhead than about its pace.
  if (!(mediaDurationMs >= 1000) || completedAt < uploadedAt) return undefined;
  return (completedAt - uploadedAt) / mediaDurationMs;
}

/** The kept paces with `pace` added, oldest dropped past `keep`. */
export function rememberPace(kept: readonly number[], pace: number, keep = PACE_KEPT): number[] {
  if (!Number.isFinite(pace) || pace < 0) return [...kept];
  return [...kept, pace].slice(-keep);
}

export function median(values: readonly number[]): number | undefined {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return undefined;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

/** The pace to plan with: the median of what was learned, else the prior. */
export function planningPace(kept: readonly number[]): { pace: number; learned: boolean } {
  const m = median(kept);
  return m === undefined ? { pace: PACE_PRIOR, learned: false } : { pace: m, learned: true };
}

export interface ThroughputSample {
  at: number;
  /** Bytes uploaded in total so far (a running sum). */
  bytes: number;
}

/**
 * Adds a running total to an upload's samples: merged into the newest when it is under
 * `SPEED_SAMPLE_MS` old (progress comes per chunk, thousands a second on a fast line), and the
 * samples older than `windowMs` dropped except the newest of them, the window's starting point.
 * Changes `samples` in place (it is the uploader's own list) and returns it.
 */
export function addSpeedSample(
  samples: ThroughputSample[],
  at: number,
  bytes: number,
  windowMs = SPEED_WINDOW_MS,
): ThroughputSample[] {
  const last = samples[samples.length - 1];
  if (last && samples.length > 1 && at - samples[samples.length - 2]!.at < SPEED_SAMPLE_MS) {
    last.at = at;
    last.bytes = bytes;
  } else samples.push({ at, bytes });
  while (samples.length > 2 && samples[1]!.at <= at - windowMs) samples.shift();
  return samples;
}

/**
 * Note: what the line has carried, not what was handed to the socket. The first bytes of an upload
 * fill the system's send buffers (and, on loopback or a LAN, the receiver's) in a burst, megabytes
 * on a slow line, drained later at the line's rate; a body's last bytes are "sent" as they enter
 * those buffers. So an upload's speed is measured only from BUFFER_FILL_MS after it began, when
 * the buffers are full and every byte taken is one that left; and the bytes shown as sent are
 * what that speed carried since the start, never more than were handed over. Time left is read
 * from the bytes still to carry at that speed.
 */
export const BUFFER_FILL_MS = 2000;
/**
 * Reports closer together than this are one burst (chunks taken one after another as the socket
 * drains); a burst is a point once it is over, at its end. Under SPEED_SAMPLE_MS, so a fast line's
 * samples (one per SPEED_SAMPLE_MS) stay points; long enough for a burst's chunks on a busy machine.
 */
export const BURST_MS = 200;

export interface LineProgress {
  /** Bytes per second the line carries; 0 while not yet measured. */
  speed: number;
  /** Bytes the line has carried so far (an estimate once the speed is known; else those past the first fill). */
  carried: number;
}

export function lineProgress(
  p: { sent: number; startedAt: number; samples: readonly ThroughputSample[]; fill?: { bytes: number } },
  now: number,
  windowMs = SPEED_WINDOW_MS,
  fillMs = BUFFER_FILL_MS,
): LineProgress {
  // A burst of reports (chunks taken one after another as the socket drains) is one point, at its
  // end; the newest report may be the start of one still under way (a view made then read the burst's
  // first chunk as all the line had carried in seconds, and showed a third of its speed).
  const steady = p.samples.filter((s, i) => {
    const after = p.samples[i + 1]?.at ?? now;
    return s.at >= p.startedAt + fillMs && after - s.at >= BURST_MS;
  });
  const last = steady[steady.length - 1];
  let start = steady[0];
  const unmeasured = { speed: 0, carried: beyondFill(p) };
  if (!start || !last) return unmeasured;
  for (const s of steady) {
    if (s.at <= now - windowMs) start = s;
    else break;
  }
  const span = last.at - start.at;
  if (span < 1000) return unmeasured;
  // From report to report: a slow socket takes bytes in bursts seconds apart (a third of its send
  // buffer each time that much has drained), so measured to `now` the speed would saw up and down
  // between them. Until the next burst the line can have carried at most about one more burst: past
  // that, a counter standing still makes the speed fall with the clock rather than freeze. (Only
  // past that: a burst a second later than the last gap is not a slower line.)
  const reports = steady.filter((s) => s.at >= start.at).length - 1;
  const moved = last.bytes - start.bytes;
  const waited = Math.max(0, now - last.at);
  const rate = Math.min(moved / span, (moved + moved / reports) / (span + waited));
  const speed = Math.max(0, Math.round(rate * 1000));
  if (speed === 0) return unmeasured;
  return { speed, carried: Math.min(p.sent, Math.round((speed * (now - p.startedAt)) / 1000)) };
}

/**
 * Before the speed is measured: the bytes handed over past the buffers' first fill, which the line
 * had not carried when they were taken. The fill is what was handed over in the first
 * BUFFER_FILL_MS of reports (`addUploadReport` keeps it: the samples' window forgets the first
 * ones after SPEED_WINDOW_MS). Showing all that was handed over put a 300 KB/s line's row 3 MB
 * ahead of it for its first 10 s; taking only the first burst as the fill still put it 2.5 MB ahead
 * on a loaded machine, where the fill arrives spread over reports seconds apart.
 */
function beyondFill(p: { sent: number; fill?: { bytes: number } }): number {
  return Math.max(0, p.sent - (p.fill?.bytes ?? p.sent));
}

/** One upload as its progress reports build it: what `lineProgress` reads. */
export interface UploadLine {
  sent: number;
  startedAt: number;
  samples: ThroughputSample[];
  /** The buffers' first fill: the first report's time, and the bytes handed over up to `fillMs` after it. */
  fill?: { from: number; bytes: number };
}

/** Takes one progress report (bytes handed over in all, `at`) into `p`, in place. */
export function addUploadReport(p: UploadLine, at: number, sent: number, fillMs = BUFFER_FILL_MS): void {
  p.sent = sent;
  if (!p.fill && sent > 0) p.fill = { from: at, bytes: sent };
  else if (p.fill && at - p.fill.from < fillMs) p.fill.bytes = Math.max(p.fill.bytes, sent);
  addSpeedSample(p.samples, at, sent);
}

export interface EstimateJob {
  state: JobState;
  /** Bytes still to upload (0 once the upload was confirmed). */
  remainingBytes: number;
  totalBytes: number;
  mediaDurationMs?: number;
  /** When the upload was confirmed (processing started at the service). */
  uploadedAt?: number;
}

export interface EstimateInput {
  /** The batch's unfinished jobs, in queue order. */
  jobs: readonly EstimateJob[];
  now: number;
  /** Bytes per second; 0 when not measured. */
  throughput: number;
  pace: number;
  paused: boolean;
  /** Queued jobs will not start ("stop after current"). */
  stoppingAfterCurrent: boolean;
}

export type Estimate =
  | { kind: 'done' }
  | { kind: 'paused' }
  /** Uploads remain and no throughput is measured yet. */
  | { kind: 'unknown' }
  | { kind: 'eta'; ms: number; uploadMs: number; processingMs: number };

/** A job's media length: known, or guessed from its size at the batch's bytes per media second. */
function mediaMs(job: EstimateJob, bytesPerMs: number | undefined): number {
  if (job.mediaDurationMs !== undefined && job.mediaDurationMs > 0) return job.mediaDurationMs;
  return bytesPerMs ? job.totalBytes / bytesPerMs : 0;
}

/**
 * Uploads share the measured throughput one after another in queue order; each file's processing
 * starts when its upload ends and runs alongside the others (the service processes streams in
 * parallel). The batch ends when the last file's processing does.
 */
export function estimateBatch(input: EstimateInput): Estimate {
  const jobs = input.jobs.filter(
    (j) => j.state !== 'completed' && j.state !== 'failed' && j.state !== 'canceled' && j.state !== 'expired',
  );
  if (jobs.length === 0) return { kind: 'done' };
  if (input.paused) return { kind: 'paused' };
  const counted = input.stoppingAfterCurrent ? jobs.filter((j) => j.state !== 'queued') : jobs;
  const bytesPerMs = median(
    counted.filter((j) => j.mediaDurationMs && j.mediaDurationMs > 0).map((j) => j.totalBytes / j.mediaDurationMs!),
  );
  let uploadEnd = 0;
  let end = 0;
  for (const j of counted) {
    const processing = input.pace * mediaMs(j, bytesPerMs);
    if (j.state === 'queued' || (j.state === 'uploading' && j.remainingBytes > 0)) {
      if (j.remainingBytes > 0 && input.throughput <= 0) return { kind: 'unknown' };
      uploadEnd += input.throughput > 0 ? (j.remainingBytes / input.throughput) * 1000 : 0;
      end = Math.max(end, uploadEnd + processing);
    } else if (j.state === 'processing' || j.state === 'uploading') {
      const started = j.uploadedAt ?? input.now;
      end = Math.max(end, started + processing - input.now);
    }
    // exporting: the results are on their way; seconds, not worth a guess.
  }
  const ms = Math.max(0, Math.round(end));
  const uploadMs = Math.round(uploadEnd);
  return { kind: 'eta', ms, uploadMs, processingMs: Math.max(0, ms - uploadMs) };
}
