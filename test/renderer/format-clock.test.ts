import { describe, expect, it } from 'vitest';
import { formatClock } from '../../renderer/src/lib/format.js';

describe('formatClock', () => {
  it('gives minutes and seconds, and hours when there are any', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(1000)).toBe('0:01');
    expect(formatClock(75_000)).toBe('1:15');
    expect(formatClock(3_725_000)).toBe('1:02:05');
  });

  it('says a length under a second in tenths, never "0:00" (a bite of a word or two)', () => {
    expect(formatClock(600)).toBe('0.6 s');
    expect(formatClock(640)).toBe('0.6 s');
    expect(formatClock(250)).toBe('0.3 s');
    // Never "0.0 s" for something, nor "1.0 s" for what the clock would call 0:00.
    expect(formatClock(20)).toBe('0.1 s');
    expect(formatClock(999)).toBe('0.9 s');
  });

  it('has a dash for what is not a length', () => {
    expect(formatClock(null)).toBe('—');
    expect(formatClock(undefined)).toBe('—');
    expect(formatClock(-5)).toBe('—');
    expect(formatClock(Number.NaN)).toBe('—');
  });
});
