// The review's running timecode (preload/contract/timecode.ts) labels every
// moment exactly as the engine's timecode module does, at every rate and start, drop-frame included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockLabel, frameAt } from '../../../preload/contract/timecode.js';
import type { TimelineClockView } from '../../../preload/contract.js';
import { msToFrameFloor } from '../../../common/frames.js';
import { RATE_IDS, rateOf } from '../../../main/engine/timecode/rates.js';
import { formatTimecode, framesPerDay } from '../../../common/timecode.js';

const clockOn = (id: (typeof RATE_IDS)[number], startFrame: number): TimelineClockView => {
  const r = rateOf(id);
  return { start: '', rate: id, origin: 'tmcd', startFrame, num: r.num, den: r.den, dropFrame: r.dropFrame };
};

describe.each(RATE_IDS)('at %s', (id) => {
  const rate = rateOf(id);
  it('a moment falls in the frame the engine counts, and is labelled as the engine labels it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: framesPerDay(rate) - 1 }),
        fc.integer({ min: 0, max: 30 * 3600 * 1000 }),
        (startFrame, ms) => {
          const clock = clockOn(id, startFrame);
          const frame = frameAt(ms / 1000, clock);
          expect(frame).toBe(msToFrameFloor(ms, rate));
          expect(clockLabel(frame, clock)).toBe(formatTimecode(startFrame + frame, rate));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('the drop-frame minute', () => {
  it('skips ;00 and ;01 at 29.97 DF except every tenth minute', () => {
    const clock = clockOn('29.97df', 0);
    // 00:00:59;29 is frame 1799; the next is 00:01:00;02. At minute ten, ;00 is there.
    expect(clockLabel(1799, clock)).toBe('00:00:59;29');
    expect(clockLabel(1800, clock)).toBe('00:01:00;02');
    expect(clockLabel(17982, clock)).toBe('00:10:00;00');
  });
});
