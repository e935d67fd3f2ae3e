// The stream state machine of contract §9 / C24 (timeline §9.5). Pure: every function takes the
// record and `now` (epoch ms) and returns a new record. Processing is a precomputed timeline of
// steps; `advance` applies the steps that are due, so no timer is needed to move a stream on.
import type { GatewayState, ProcessorState, StreamState } from '../service/types.js';

export const CLOSE_SIGNAL = 'External close signal received';
export const NO_PROMPT = 'Stream has no prompt enabled';
export const CANCELED = 'Stream canceled by user';
export const INTERRUPTED = 'Upload interrupted';

export interface ProcessorComponent {
  processorId: string;
  state: ProcessorState;
  changedAt: number;
  description: string | null;
  /** When it started RUNNING (usage executionTime). */
  startedAt: number | null;
}

export interface Lifecycle {
  state: StreamState;
  description: string | null;
  stateChangedAt: number;
  finalizedAt: number | null;
  gateway: { state: GatewayState; changedAt: number };
  processors: ProcessorComponent[];
  /** Pending steps, ascending `at`. Empty until the media was probed. */
  steps: Step[];
}

export type Step =
  | { at: number; kind: 'processor'; processorId: string; state: ProcessorState; description: string | null }
  | { at: number; kind: 'finish'; state: 'COMPLETED' | 'FAILED' };

export function created(processorIds: readonly string[], now: number): Lifecycle {
  return {
    state: 'READY',
    description: null,
    stateChangedAt: now,
    finalizedAt: null,
    gateway: { state: 'CONNECTED', changedAt: now },
    processors: processorIds.map((processorId) => ({
      processorId,
      state: 'WAITING',
      changedAt: now,
      description: null,
      startedAt: null,
    })),
    steps: [],
  };
}

/** Body fully received: gateway CLOSED, first processor RUNNING (§9.5). */
export function bodyReceived(lc: Lifecycle, now: number): Lifecycle {
  if (lc.state !== 'READY') return lc;
  return {
    ...lc,
    gateway: { state: 'CLOSED', changedAt: now },
    processors: lc.processors.map((p, i) => (i === 0 ? { ...p, state: 'RUNNING', changedAt: now, startedAt: now } : p)),
  };
}

function fail(lc: Lifecycle, now: number, description: string | null): Lifecycle {
  return {
    ...lc,
    state: 'FAILED',
    description,
    stateChangedAt: now,
    finalizedAt: now,
    gateway: lc.gateway.state === 'CLOSED' ? lc.gateway : { state: 'CLOSED', changedAt: now },
    processors: lc.processors.map((p) =>
      p.state === 'COMPLETED' || p.state === 'ERROR'
        ? p
        : { ...p, state: 'ERROR', changedAt: now, description: CLOSE_SIGNAL },
    ),
    steps: [],
  };
}

/** C12: the client went away mid-body. The gateway is DISCONNECTED then CLOSED (same instant). */
export function uploadInterrupted(lc: Lifecycle, now: number): Lifecycle {
  if (lc.state !== 'READY') return lc;
  return fail({ ...lc, gateway: { state: 'DISCONNECTED', changedAt: now } }, now, INTERRUPTED);
}

/** C16. Returns null when the stream already finished (the caller answers 409). */
export function cancel(lc: Lifecycle, now: number): Lifecycle | null {
  if (lc.state !== 'READY') return null;
  return fail(lc, now, CANCELED);
}

export interface PlanInput {
  startAt: number;
  totalMs: number;
  /** Processors with nothing to do complete at once when reached (the llm without prompts). */
  idle: ReadonlySet<string>;
  failure?: { processorId: string; description: string } | undefined;
}

/** Relative weight of each processor's share of the processing time. */
const WEIGHT: Record<string, number> = { transcriber: 6, diarization: 3, llm: 2, echo: 1, transcoder: 1 };

/**
 * §9.5: processors run one after another following the DAG (a chain in every built-in template),
 * splitting `totalMs` by weight. A failure ends the stream halfway through the failing processor.
 */
export function plan(lc: Lifecycle, input: PlanInput): Lifecycle {
  const ids = lc.processors.map((p) => p.processorId);
  const busy = ids.filter((id) => !input.idle.has(id));
  const totalWeight = busy.reduce((s, id) => s + (WEIGHT[id] ?? 1), 0) || 1;
  const steps: Step[] = [];
  let t = input.startAt;
  for (const [i, id] of ids.entries()) {
    if (i > 0 && !input.idle.has(id))
      steps.push({ at: t, kind: 'processor', processorId: id, state: 'RUNNING', description: null });
    if (input.failure?.processorId === id) {
      const at = t + Math.round(((WEIGHT[id] ?? 1) / totalWeight) * input.totalMs * 0.5);
      steps.push({ at, kind: 'processor', processorId: id, state: 'ERROR', description: input.failure.description });
      steps.push({ at, kind: 'finish', state: 'FAILED' });
      return { ...lc, steps };
    }
    if (input.idle.has(id)) {
      steps.push({
        at: t,
        kind: 'processor',
        processorId: id,
        state: 'COMPLETED',
        description: id === 'llm' ? NO_PROMPT : null,
      });
      continue;
    }
    t += Math.round(((WEIGHT[id] ?? 1) / totalWeight) * input.totalMs);
    steps.push({ at: t, kind: 'processor', processorId: id, state: 'COMPLETED', description: null });
  }
  steps.push({ at: t, kind: 'finish', state: 'COMPLETED' });
  return { ...lc, steps };
}

function applyStep(lc: Lifecycle, step: Step): Lifecycle {
  if (step.kind === 'finish') {
    if (step.state === 'FAILED') return fail(lc, step.at, null);
    return { ...lc, state: 'COMPLETED', stateChangedAt: step.at, finalizedAt: step.at };
  }
  return {
    ...lc,
    processors: lc.processors.map((p) =>
      p.processorId !== step.processorId
        ? p
        : {
            ...p,
            state: step.state,
            changedAt: step.at,
            description: step.description,
            startedAt: step.state === 'RUNNING' ? step.at : p.startedAt,
          },
    ),
  };
}

/** Applies every due step, then expiry (C23: retention counts from finalizedTimestamp). */
export function advance(lc: Lifecycle, now: number, retentionMs: number): Lifecycle {
  let out = lc;
  while (out.state === 'READY' && out.steps.length > 0 && (out.steps[0]?.at ?? Infinity) <= now) {
    const [step, ...rest] = out.steps;
    out = applyStep({ ...out, steps: rest }, step as Step);
  }
  if ((out.state === 'COMPLETED' || out.state === 'FAILED') && out.finalizedAt !== null) {
    const expiresAt = out.finalizedAt + retentionMs;
    if (expiresAt <= now) out = { ...out, state: 'EXPIRED', stateChangedAt: expiresAt, steps: [] };
  }
  return out;
}

/** When the next change happens (for waiting exports), or null when nothing is scheduled. */
export function nextChangeAt(lc: Lifecycle): number | null {
  return lc.state === 'READY' ? (lc.steps[0]?.at ?? null) : null;
}
