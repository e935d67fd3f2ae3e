// One reading of SMPTE timecode for the whole app (common/timecode.ts): a typed start, where the
// rate decides the counting, and a container's or sidecar's label, where a `;` or `,` says
// drop-frame. Midnight wraps like a clock; a timecode no clock shows is refused, saying why.
import { describe, expect, it } from 'vitest';
import {
  canDropFrame,
  formatTimecode,
  framesPerDay,
  isNtscRate,
  ntscNominalOf,
  ntscRate,
  parseTimecode,
  readTimecodeLabel,
  type FrameRate,
} from '../../common/timecode.js';

const r = (num: number, den: number, dropFrame = false): FrameRate => ({ num, den, dropFrame });
const df30 = r(30000, 1001, true);
const df60 = r(60000, 1001, true);
const framesOf = (label: string, rate: FrameRate): number | null => {
  const read = readTimecodeLabel(label, rate);
  return read && 'frames' in read ? read.frames : null;
};

describe('midnight', () => {
  it.each([
    ['29.97 DF', df30, '23:59:59;29'],
    ['59.94 DF', df60, '23:59:59;59'],
    ['25', r(25, 1), '23:59:59:24'],
  ])('at %s, %s and one frame is 00:00:00 again', (_name, rate, last) => {
    const frames = parseTimecode(last, rate);
    expect(frames).toBe(framesPerDay(rate) - 1);
    expect(formatTimecode(frames, rate)).toBe(last);
    expect(formatTimecode(frames + 1, rate)).toBe(rate.dropFrame ? '00:00:00;00' : '00:00:00:00');
  });

  it('a day of drop-frame is 2,589,408 frames at 29.97 and twice that at 59.94', () => {
    expect(framesPerDay(df30)).toBe(2_589_408);
    expect(framesPerDay(df60)).toBe(5_178_816);
  });
});

describe('59.94 drop-frame', () => {
  it('skips ;00 to ;03 each minute but the tenth, both ways', () => {
    expect(formatTimecode(3599, df60)).toBe('00:00:59;59');
    expect(formatTimecode(3600, df60)).toBe('00:01:00;04');
    expect(parseTimecode('00:10:00;00', df60)).toBe(35_964);
    expect(parseTimecode('01:00:00;00', df60)).toBe(215_784);
    expect(framesOf('00:01:00;04', r(60000, 1001))).toBe(3600);
  });
});

describe('a label from the media', () => {
  it.each([
    ['00:00:00:00', r(25, 1), 0],
    ['01:00:00:00', r(25, 1), 90_000],
    ['00:01:00;02', r(30000, 1001), 1800],
    ['00:01:00,02', r(30000, 1001), 1800],
    ['00:10:00;00', r(30000, 1001), 17_982],
    ['00:01:00:02', df30, 1800],
    ['00:01:00:02', r(30000, 1001), 1802],
    ['00:01:00;02', r(25, 1), 1502],
    ['23:59:59:23', r(24, 1), 24 * 86_400 - 1],
    ['1:00:00:00', r(25, 1), 90_000],
  ])('%s at %o is frame %d', (label, rate, frames) => {
    expect(framesOf(label, rate)).toBe(frames);
  });

  it('says the counting it was read in: a `;` or `,` is drop-frame where the rate has it', () => {
    expect(readTimecodeLabel('00:01:00;02', r(30000, 1001))).toEqual({ frames: 1800, rate: df30 });
    expect(readTimecodeLabel('00:01:00:02', r(30000, 1001))).toEqual({ frames: 1802, rate: r(30000, 1001) });
    // 25 fps has no drop-frame: the separator is only a separator there.
    expect(readTimecodeLabel('00:00:01;00', r(25, 1))).toEqual({ frames: 25, rate: r(25, 1) });
  });

  it('is null when it is no label at all', () => {
    expect(readTimecodeLabel('1 h', r(25, 1))).toBeNull();
    expect(readTimecodeLabel('', r(25, 1))).toBeNull();
  });

  it.each([
    ['27:00:00:00', r(25, 1), /27:00:00:00 does not exist at 25 fps \(.*hours 00–23/],
    ['01:00:00:25', r(25, 1), /01:00:00:25 does not exist at 25 fps \(.*00 to 24 \(got 25\)/],
    ['00:01:00;00', r(30000, 1001), /00:01:00;00 does not exist at 29.97 DF fps \(.*skips frames 00–01 at minute 1/],
    ['00:02:00;03', r(60000, 1001), /00:02:00;03 does not exist at 59.94 DF fps \(.*skips frames 00–03/],
    ['00:61:00:00', r(24, 1), /HH:MM:SS:FF/],
  ])('refuses %s at %o, saying why', (label, rate, why) => {
    expect(readTimecodeLabel(label, rate)).toEqual({ refused: expect.stringMatching(why) });
  });

  it('refuses a typed timecode no clock shows, saying how to write one', () => {
    expect(() => parseTimecode('24:00:00:00', r(25, 1))).toThrow(/hours 00–23/);
    expect(() => parseTimecode('00:01:00;01', df30)).toThrow(/the minute starts at ;02/);
    expect(() => parseTimecode('one hour', r(25, 1))).toThrow(/write it as HH:MM:SS:FF, e.g. 01:00:00:00/);
  });
});

describe('the NTSC family, decided once', () => {
  it('is every count × 1000/1001, and drop-frame exists at 29.97 and 59.94 only', () => {
    for (const nominal of [24, 30, 48, 60, 120]) {
      const rate = ntscRate(nominal);
      expect(rate.num / rate.den).toBeCloseTo((nominal * 1000) / 1001, 9);
      expect(isNtscRate(rate)).toBe(true);
      expect(canDropFrame(rate)).toBe(nominal === 30 || nominal === 60);
    }
    expect(isNtscRate(r(25, 1))).toBe(false);
    expect(isNtscRate(r(30, 1))).toBe(false);
    expect(canDropFrame(r(30, 1))).toBe(false);
  });

  it.each([
    [23.976, 24],
    [23.98, 24],
    [29.97, 30],
    [47.952, 48],
    [59.94, 60],
    [119.88, 120],
    [2997 / 100, 30],
  ])('reads the decimal %s as the NTSC rate that counts %s', (fps, nominal) => {
    expect(ntscNominalOf(fps)).toBe(nominal);
  });

  it.each([25, 24, 30, 50, 12, 29.5, 99.9])('reads %s as no NTSC rate', (fps) => {
    expect(ntscNominalOf(fps)).toBeNull();
  });
});
