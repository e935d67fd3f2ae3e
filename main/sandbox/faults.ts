// Fault injection (the sandbox as a test bed for the client's retry and recovery paths).
//
// Every fault has a selector deciding WHICH requests/uploads/streams it hits:
//   { next: N }        the next N matching ones (the count left is visible in getFaults());
//   { everyKth: K }    every Kth matching one (K, 2K, 3K, ... counted from when the faults were set);
//   { operations: [...] } limits a request fault to these operation names (see stats() names).
// `next` and `everyKth` may be combined (either fires). With neither, a fault never fires, so an
// empty FaultConfig ({}) never fails anything.
//
// Settable by SandboxOptions.faults, by SLUICE_SANDBOX_FAULTS (JSON of this shape; read by
// startSandbox when no `faults` option is given), and by PUT /sandbox/admin/faults (JSON body).
// Setting faults replaces the whole configuration and resets every counter.
import { z } from 'zod';
import { SANDBOX_BEHAVIOUR } from '../service/policy.js';
import { INTERNAL_ERROR_NAMES } from '../service/types.js';

const RETRY_AFTER_S = SANDBOX_BEHAVIOUR.defaultRetryAfterS;

const selector = {
  next: z.number().int().min(0).optional(),
  everyKth: z.number().int().min(1).optional(),
};
const operations = z.array(z.string()).optional();

const faultConfigSchema = z
  .object({
    /**
     * A request rate limit: 429 with Retry-After before the handler runs, answered like a gateway
     * (`{"message": …}`, no internalErrorName). The account's usage limit is `maxConcurrentStreams`.
     */
    rateLimit: z.object({ ...selector, operations, retryAfterS: z.number().int().min(0).optional() }).optional(),
    /** Bursts of 5xx (default 503 GENERAL_INTERNAL_ERROR-style body; Retry-After sent for 503). */
    serverErrors: z
      .object({
        ...selector,
        operations,
        status: z.number().int().min(500).max(599).optional(),
        retryAfterS: z.number().int().min(0).optional(),
      })
      .optional(),
    /** Destroy the socket of an upload after `afterBytes` bytes of body were received. */
    uploadReset: z.object({ ...selector, afterBytes: z.number().int().min(0) }).optional(),
    /**
     * Every upload body is read at most this fast. The client has sent bytes the stream has not
     * counted yet (they wait in socket buffers, as behind a buffering proxy), so a client killed
     * then leaves a stream that can still receive the whole file and complete.
     */
    uploadThrottle: z
      .object({
        bytesPerSecond: z.number().int().min(1),
        /** false: read from the connection itself at that rate; a client killed then cuts the body short. */
        buffered: z.boolean().optional(),
      })
      .optional(),
    /** Added latency before every matching response (ms). */
    latency: z.object({ ms: z.number().int().min(0), operations }).optional(),
    /** Streams that fail during processing with a processor error. */
    processingFailure: z
      .object({
        ...selector,
        processor: z.string().optional(),
        /** Only streams of these names fail (a test's one damaged file among good ones). */
        names: z.array(z.string()).optional(),
        internalErrorName: z.enum(INTERNAL_ERROR_NAMES).optional(),
        detail: z.string().optional(),
      })
      .optional(),
    /** Upload refused with 503 PROCESSOR_FAILED_RESERVATION_ERROR (no capacity). */
    reservationFailure: z.object({ ...selector, retryAfterS: z.number().int().min(0).optional() }).optional(),
    /** Concurrency ceiling (C31/§15.1): overrides SandboxOptions.maxConcurrentStreams when present. */
    maxConcurrentStreams: z.number().int().min(0).nullable().optional(),
  })
  .strict();

export type FaultConfig = z.infer<typeof faultConfigSchema>;

type Selector = { next?: number | undefined; everyKth?: number | undefined; operations?: string[] | undefined };
type CountedKey = 'rateLimit' | 'serverErrors' | 'uploadReset' | 'processingFailure' | 'reservationFailure';

/** Parses untrusted fault JSON (env var, admin endpoint); throws a readable message. */
export function parseFaultConfig(input: unknown): FaultConfig {
  const r = faultConfigSchema.safeParse(input);
  if (!r.success)
    throw new Error(
      `Invalid fault configuration: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return r.data;
}

export class FaultState {
  private config: FaultConfig = {};
  private seen: Partial<Record<CountedKey, number>> = {};

  constructor(initial: FaultConfig = {}) {
    this.set(initial);
  }

  set(config: FaultConfig): void {
    this.config = structuredClone(config);
    this.seen = {};
  }

  get(): FaultConfig {
    return structuredClone(this.config);
  }

  /** How an upload body is read when uploads are throttled (undefined: at full speed). */
  uploadThrottle(): { bytesPerSecond: number; buffered: boolean } | undefined {
    const t = this.config.uploadThrottle;
    return t ? { bytesPerSecond: t.bytesPerSecond, buffered: t.buffered ?? true } : undefined;
  }

  latencyMs(operation: string): number {
    const l = this.config.latency;
    if (!l || (l.operations && !l.operations.includes(operation))) return 0;
    return l.ms;
  }

  /** Counts this occurrence against the fault and says whether it fires. */
  private fire(key: CountedKey, operation?: string): boolean {
    const f = this.config[key] as Selector | undefined;
    if (!f) return false;
    if (operation !== undefined && f.operations && !f.operations.includes(operation)) return false;
    const n = (this.seen[key] ?? 0) + 1;
    this.seen[key] = n;
    let fires = false;
    if (f.everyKth !== undefined && n % f.everyKth === 0) fires = true;
    if (f.next !== undefined && f.next > 0) {
      f.next -= 1;
      fires = true;
    }
    return fires;
  }

  rateLimit(operation: string): { retryAfterS: number } | null {
    return this.fire('rateLimit', operation)
      ? { retryAfterS: this.config.rateLimit?.retryAfterS ?? RETRY_AFTER_S }
      : null;
  }

  serverError(operation: string): { status: number; retryAfterS: number } | null {
    if (!this.fire('serverErrors', operation)) return null;
    return {
      status: this.config.serverErrors?.status ?? 503,
      retryAfterS: this.config.serverErrors?.retryAfterS ?? RETRY_AFTER_S,
    };
  }

  uploadReset(): { afterBytes: number } | null {
    return this.fire('uploadReset') ? { afterBytes: this.config.uploadReset?.afterBytes ?? 0 } : null;
  }

  reservationFailure(): { retryAfterS: number } | null {
    return this.fire('reservationFailure')
      ? { retryAfterS: this.config.reservationFailure?.retryAfterS ?? RETRY_AFTER_S }
      : null;
  }

  processingFailure(name?: string): { processor?: string; internalErrorName: string; detail: string } | null {
    const f = this.config.processingFailure;
    if (f?.names && (name === undefined || !f.names.includes(name))) return null;
    if (!this.fire('processingFailure')) return null;
    return {
      ...(f?.processor !== undefined ? { processor: f.processor } : {}),
      internalErrorName: f?.internalErrorName ?? 'PROCESSOR_TRANSCRIPTION_ERROR',
      detail: f?.detail ?? 'SimulatedFaultException: failure injected by the sandbox fault configuration',
    };
  }

  /** undefined = not set by faults, fall back to the option. */
  maxConcurrentStreams(): number | null | undefined {
    return this.config.maxConcurrentStreams;
  }
}
