import { describe, expect, it } from 'vitest';
import * as lc from '../../main/sandbox/lifecycle.js';

const ids = ['transcriber', 'diarization', 'llm'];
const T0 = 1_000_000;
const started = (): lc.Lifecycle => lc.bodyReceived(lc.created(ids, T0), T0 + 10);
const states = (l: lc.Lifecycle): string[] => l.processors.map((p) => p.state);

describe('stream lifecycle (§9.5)', () => {
  it('starts READY with the gateway CONNECTED and every processor WAITING', () => {
    const l = lc.created(ids, T0);
    expect([l.state, l.gateway.state, ...states(l)]).toEqual(['READY', 'CONNECTED', 'WAITING', 'WAITING', 'WAITING']);
    expect(l.finalizedAt).toBeNull();
  });

  it('body received: gateway CLOSED, first processor RUNNING, stream still READY', () => {
    const l = started();
    expect([l.state, l.gateway.state, ...states(l)]).toEqual(['READY', 'CLOSED', 'RUNNING', 'WAITING', 'WAITING']);
    expect(l.gateway.changedAt).toBe(T0 + 10);
  });

  it('runs the processors one after another and completes at startAt + totalMs', () => {
    const l = lc.plan(started(), { startAt: T0 + 10, totalMs: 1100, idle: new Set() });
    const at = (t: number): lc.Lifecycle => lc.advance(l, t, 10_000);
    expect(states(at(T0 + 500))).toEqual(['RUNNING', 'WAITING', 'WAITING']);
    expect(states(at(T0 + 10 + 600))).toEqual(['COMPLETED', 'RUNNING', 'WAITING']);
    expect(states(at(T0 + 10 + 900))).toEqual(['COMPLETED', 'COMPLETED', 'RUNNING']);
    expect(at(T0 + 10 + 1099).state).toBe('READY');
    const done = at(T0 + 10 + 1100);
    expect([done.state, ...states(done)]).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED']);
    expect(done.finalizedAt).toBe(T0 + 1110);
    expect(done.stateChangedAt).toBe(T0 + 1110);
  });

  it('an idle llm completes at once with "Stream has no prompt enabled"', () => {
    const l = lc.advance(lc.plan(started(), { startAt: T0, totalMs: 900, idle: new Set(['llm']) }), T0 + 900, 1e9);
    expect(l.state).toBe('COMPLETED');
    expect(l.processors[2]).toMatchObject({ state: 'COMPLETED', description: lc.NO_PROMPT, startedAt: null });
  });

  it('a failing processor errors, later ones get the close signal, earlier ones stay COMPLETED', () => {
    const failure = { processorId: 'diarization', description: '[InternalErrorName.X] boom' };
    const l = lc.advance(
      lc.plan(started(), { startAt: T0, totalMs: 1000, idle: new Set(), failure }),
      T0 + 10_000,
      1e9,
    );
    expect([l.state, l.description, l.gateway.state]).toEqual(['FAILED', null, 'CLOSED']);
    expect(l.processors.map((p) => [p.state, p.description])).toEqual([
      ['COMPLETED', null],
      ['ERROR', failure.description],
      ['ERROR', lc.CLOSE_SIGNAL],
    ]);
  });

  it('cancel: READY → FAILED "Stream canceled by user"; finished → null (409)', () => {
    const c = lc.cancel(started(), T0 + 50);
    expect([c?.state, c?.description, c?.finalizedAt]).toEqual(['FAILED', lc.CANCELED, T0 + 50]);
    expect(c?.processors.map((p) => p.description)).toEqual([lc.CLOSE_SIGNAL, lc.CLOSE_SIGNAL, lc.CLOSE_SIGNAL]);
    expect(lc.cancel(c as lc.Lifecycle, T0 + 60)).toBeNull();
  });

  it('interrupted upload: FAILED "Upload interrupted", gateway CLOSED', () => {
    const l = lc.uploadInterrupted(lc.created(ids, T0), T0 + 5);
    expect([l.state, l.description, l.gateway.state]).toEqual(['FAILED', lc.INTERRUPTED, 'CLOSED']);
  });

  it('expires retentionMs after finalisation, and not before (C23)', () => {
    const l = lc.plan(started(), { startAt: T0, totalMs: 100, idle: new Set() });
    expect(lc.advance(l, T0 + 100 + 499, 500).state).toBe('COMPLETED');
    const e = lc.advance(l, T0 + 100 + 500, 500);
    expect([e.state, e.finalizedAt, e.stateChangedAt]).toEqual(['EXPIRED', T0 + 100, T0 + 600]);
    const failed = lc.cancel(started(), T0)!;
    expect(lc.advance(failed, T0 + 500, 500).state).toBe('EXPIRED');
  });

  it('nextChangeAt points at the next step while READY', () => {
    const l = lc.plan(started(), { startAt: T0, totalMs: 1000, idle: new Set() });
    expect(lc.nextChangeAt(l)).toBe(T0 + 545);
    expect(lc.nextChangeAt(lc.advance(l, T0 + 2000, 1e9))).toBeNull();
  });
});
