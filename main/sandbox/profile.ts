// Sandbox profiles: how long things take and how often the service stumbles.
//   default    processing = media duration × speed factor; nothing else waits, nothing fails.
//   realistic  what a busy production service does (contract §15.1/§15.3 ask clients to cope with
//              it): a queue delay before processing starts, processing 0.2–0.5 × the media's
//              duration, exports taking seconds for long streams, and an occasional 503 with
//              Retry-After. Every duration is scaled by the speed factor (1 = real time unless
//              one is given), so a soak of hours of media can run in minutes.
// Deterministic under a seed: per-stream values are derived from (seed, stream id), so they do not
// depend on the order requests arrive in; a 503 is decided by (seed, operation, its n-th request).
import { createHash } from 'node:crypto';

export const SANDBOX_PROFILES = ['default', 'realistic'] as const;
export type SandboxProfileName = (typeof SANDBOX_PROFILES)[number];

/** The realistic profile in real time (scale 1). */
export const REALISTIC = {
  queueDelayMs: { min: 1_000, max: 15_000 },
  processingRatio: { min: 0.2, max: 0.5 },
  exportBaseMs: 500,
  exportPerMediaMinuteMs: 100,
  /** ± this fraction around the export time. */
  exportJitter: 0.2,
  /** Share of service requests answered 503 PROCESSOR_FAILED_RESERVATION_ERROR. */
  serverErrorRate: 0.01,
  retryAfterS: 1,
} as const;

export interface SandboxProfile {
  readonly name: SandboxProfileName;
  /** Wait between the body's arrival and the start of processing. */
  queueDelayMs(streamId: string): number;
  /** Simulated processing time, or undefined to keep duration × speed factor. */
  processingMs(streamId: string, durationMs: number): number | undefined;
  exportDelayMs(streamId: string, durationMs: number): number;
  /** A 503 for this request, or null. Counted per operation. */
  serverError(operation: string): { status: number; retryAfterS: number } | null;
}

/** A uniform number in [0, 1) from the seed and a key. */
export function seededUnit(seed: number, key: string): number {
  const d = createHash('sha256').update(`${seed}:${key}`).digest();
  return d.readUIntBE(0, 6) / 2 ** 48;
}

const between = (u: number, r: { min: number; max: number }): number => r.min + u * (r.max - r.min);

export function createProfile(name: SandboxProfileName, o: { seed: number; scale: number }): SandboxProfile | null {
  if (name === 'default') return null;
  const { seed, scale } = o;
  const counts = new Map<string, number>();
  return {
    name,
    queueDelayMs: (id) => Math.round(between(seededUnit(seed, `${id}:queue`), REALISTIC.queueDelayMs) * scale),
    processingMs: (id, durationMs) =>
      Math.round(durationMs * between(seededUnit(seed, `${id}:processing`), REALISTIC.processingRatio) * scale),
    exportDelayMs: (id, durationMs) => {
      const base = REALISTIC.exportBaseMs + (durationMs / 60_000) * REALISTIC.exportPerMediaMinuteMs;
      const jitter = 1 + (seededUnit(seed, `${id}:export`) * 2 - 1) * REALISTIC.exportJitter;
      return Math.round(base * jitter * scale);
    },
    serverError(operation) {
      const n = (counts.get(operation) ?? 0) + 1;
      counts.set(operation, n);
      return seededUnit(seed, `${operation}:${n}:503`) < REALISTIC.serverErrorRate
        ? { status: 503, retryAfterS: REALISTIC.retryAfterS }
        : null;
    },
  };
}

/** Reads a profile name; an unknown one is an error naming `source` (a variable or a flag). */
export function parseProfileName(raw: string, source: string): SandboxProfileName {
  const v = raw.trim();
  if ((SANDBOX_PROFILES as readonly string[]).includes(v)) return v as SandboxProfileName;
  throw new Error(`${source} must be one of ${SANDBOX_PROFILES.join(', ')} (got "${raw}").`);
}
