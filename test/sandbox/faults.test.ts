import { describe, expect, it } from 'vitest';
import { FaultState, parseFaultConfig } from '../../main/sandbox/faults.js';

const fires = (n: number, f: () => unknown): boolean[] => Array.from({ length: n }, () => f() !== null);

describe('fault selectors', () => {
  it('no configuration never fires', () => {
    const s = new FaultState({});
    expect(fires(5, () => s.rateLimit('upload'))).toEqual([false, false, false, false, false]);
    expect(s.processingFailure()).toBeNull();
    expect(s.latencyMs('upload')).toBe(0);
  });

  it('next N fires N times and the remaining count is visible', () => {
    const s = new FaultState({ serverErrors: { next: 2, status: 502 } });
    expect(s.serverError('findById')).toEqual({ status: 502, retryAfterS: 1 });
    expect(s.get().serverErrors?.next).toBe(1);
    expect(fires(3, () => s.serverError('findById'))).toEqual([true, false, false]);
  });

  it('everyKth fires on K, 2K, ...', () => {
    const s = new FaultState({ rateLimit: { everyKth: 3, retryAfterS: 7 } });
    expect(fires(7, () => s.rateLimit('x'))).toEqual([false, false, true, false, false, true, false]);
  });

  it('operations limit a request fault, and non-matching requests do not count', () => {
    const s = new FaultState({ rateLimit: { everyKth: 2, operations: ['upload'] } });
    expect(fires(3, () => s.rateLimit('findById'))).toEqual([false, false, false]);
    expect(fires(2, () => s.rateLimit('upload'))).toEqual([false, true]);
  });

  it('setting faults resets the counters', () => {
    const s = new FaultState({ rateLimit: { everyKth: 2 } });
    s.rateLimit('x');
    s.set({ rateLimit: { everyKth: 2 } });
    expect(fires(2, () => s.rateLimit('x'))).toEqual([false, true]);
  });

  it('processing failure defaults and overrides', () => {
    const s = new FaultState({
      processingFailure: { next: 1, processor: 'llm', internalErrorName: 'PROCESSOR_GENERAL_ERROR' },
    });
    expect(s.processingFailure()).toMatchObject({ processor: 'llm', internalErrorName: 'PROCESSOR_GENERAL_ERROR' });
    expect(s.processingFailure()).toBeNull();
  });

  it('validates untrusted JSON', () => {
    expect(() => parseFaultConfig({ rateLimit: { next: -1 } })).toThrow(/rateLimit\.next/);
    expect(() => parseFaultConfig({ bogus: 1 })).toThrow(/Invalid fault configuration/);
    expect(() => parseFaultConfig({ processingFailure: { internalErrorName: 'NOPE' } })).toThrow();
    expect(parseFaultConfig({ latency: { ms: 5 } })).toEqual({ latency: { ms: 5 } });
  });
});
