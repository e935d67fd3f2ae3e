// Where a file starts on the timeline, from what its container says or the folder's fixed start.
import Timecode from 'smpte-timecode';
import { describe, expect, it } from 'vitest';
import type { MediaFacts } from '../../../main/engine/media-facts.js';
import { normalizeRate, rateOf } from '../../../main/engine/timecode/rates.js';
import { startTimecode, TIMELINE_SETTINGS, timelineOf, TimecodeError } from '../../../main/engine/timecode/timeline.js';

const base: MediaFacts = { durationMs: 60_000, hasAudio: true, videoRate: null, start: null };
const r23 = rateOf('23.976');
const df = rateOf('29.97df');

const mov23: MediaFacts = {
  ...base,
  videoRate: { num: 24000, den: 1001, dropFrame: false },
  start: {
    kind: 'frames',
    frames: new Timecode('01:00:00:00', [24000, 1001], false).frameCount,
    rate: r23,
    from: 'tmcd',
  },
};
const mp4df: MediaFacts = {
  ...base,
  videoRate: { num: 30000, den: 1001, dropFrame: false },
  start: {
    kind: 'frames',
    frames: new Timecode('00:59:50;00', [30000, 1001], true).frameCount,
    rate: df,
    from: 'tmcd',
  },
};
const wav: MediaFacts = {
  ...base,
  start: { kind: 'samples', samples: 10 * 3600 * 48_000, sampleRate: 48_000, from: 'bext' },
};

describe('timelineOf', () => {
  it('takes a MOV timecode track at 23.976 as it is', () => {
    const t = timelineOf(mov23);
    expect(t).toMatchObject({ rate: r23, startFrame: 86_400, origin: 'tmcd' });
    expect(startTimecode(t)).toBe('01:00:00:00');
  });

  it('keeps drop-frame counting from the track', () => {
    const t = timelineOf(mp4df);
    expect(t.rate.dropFrame).toBe(true);
    expect(startTimecode(t)).toBe('00:59:50;00');
    expect(t.startFrame).toBe(new Timecode('00:59:50;00', [30000, 1001], true).frameCount);
  });

  it('counts a BWF TimeReference in the default rate, or the folder rate', () => {
    expect(startTimecode(timelineOf(wav))).toBe('10:00:00:00');
    const at2997 = timelineOf(wav, { start: 'source', defaultRate: '29.97df' });
    // 10 h of real time is 10:00:00;01 in drop-frame: it keeps to the clock within 86 ms a day …
    expect(startTimecode(at2997)).toBe('10:00:00;01');
    // … and a recorder that stamped 10:00:00;00 wrote that frame's sample, which reads back to it.
    const stamped = Math.round((1_078_920 * 1001 * 48_000) / 30_000);
    const dfWav: MediaFacts = {
      ...base,
      start: { kind: 'samples', samples: stamped, sampleRate: 48_000, from: 'bext' },
    };
    expect(startTimecode(timelineOf(dfWav, { start: 'source', defaultRate: '29.97df' }))).toBe('10:00:00;00');
    // … and 09:59:24:01 in NDF (frame 1,078,921 = 35,964 s × 30 + 1), 36 s behind after ten hours.
    expect(startTimecode(timelineOf(wav, { start: 'source', defaultRate: '29.97' }))).toBe('09:59:24:01');
  });

  it('starts media that says nothing at zero on the default rate', () => {
    const t = timelineOf(null);
    expect(t).toMatchObject({ rate: rateOf('25'), startFrame: 0, origin: 'none' });
    expect(
      timelineOf(
        { ...base, videoRate: { num: 30000, den: 1001, dropFrame: false } },
        { start: 'source', defaultRate: '29.97df' },
      ).rate,
    ).toEqual(df);
    expect(timelineOf({ ...base, videoRate: { num: 50, den: 1, dropFrame: false } }).rate).toEqual(rateOf('50'));
  });

  it('puts a fixed start on the file’s own rate', () => {
    const t = timelineOf(mov23, { start: '01:00:00:00', defaultRate: '25' });
    expect(t).toMatchObject({ rate: r23, startFrame: 86_400, origin: 'fixed' });
    // A label drop-frame skips is the minute's first frame, as NLEs read it; an impossible frame is an error.
    expect(startTimecode(timelineOf(mp4df, { start: '00:01:00:00', defaultRate: '25' }))).toBe('00:01:00;02');
    expect(() => timelineOf(mp4df, { start: '00:00:00:30', defaultRate: '25' })).toThrow(TimecodeError);
  });

  it('converts a track on another rate to the nearest frame of the timeline', () => {
    const odd: MediaFacts = {
      ...base,
      start: { kind: 'frames', frames: 90_000, rate: rateOf('25'), from: 'mxf' },
      videoRate: null,
    };
    expect(timelineOf(odd).startFrame).toBe(90_000);
  });
});

describe('settings and rates', () => {
  it('validates the start choice', () => {
    expect(TIMELINE_SETTINGS.parse({})).toEqual({ start: 'source', defaultRate: '25' });
    expect(TIMELINE_SETTINGS.safeParse({ start: '1:00' }).success).toBe(false);
    expect(TIMELINE_SETTINGS.safeParse({ defaultRate: '12' }).success).toBe(false);
  });

  it('reads probe rates given in other terms as the NTSC rate they stand for', () => {
    expect(normalizeRate({ num: 2997, den: 100, dropFrame: true })).toEqual(df);
    expect(normalizeRate({ num: 24000, den: 1001, dropFrame: true })).toEqual(r23);
    expect(normalizeRate({ num: 0, den: 1, dropFrame: false })).toBeNull();
  });
});
