// The timeline's edges, decided once in the timecode module: a clip that would cross midnight, a
// timecode that counts the picture in pairs, a fixed start that moves the timeline and never the
// media, the labels a start may be typed as, and TXT stamps at the source timecode. Expected
// labels and counts come from smpte-timecode, not the engine.
import { XMLParser } from 'fast-xml-parser';
import Timecode from 'smpte-timecode';
import { describe, expect, it } from 'vitest';
import { editorDocument } from '../../../main/engine/captions/editors/document.js';
import { renderFcpxml } from '../../../main/engine/captions/editors/fcpxml.js';
import { renderItt } from '../../../main/engine/captions/editors/itt.js';
import { renderPremiere } from '../../../main/engine/captions/editors/premiere.js';
import { renderTxt } from '../../../main/engine/captions/formats.js';
import type { FrameRate, MediaFacts } from '../../../main/engine/media-facts.js';
import { withinDay } from '../../../main/engine/timecode/midnight.js';
import { rateOf } from '../../../main/engine/timecode/rates.js';
import { timecodeTextProblem } from '../../../common/timecode.js';
import { clipTimeline, paragraphStamp, TIMELINE_SETTINGS, timelineOf } from '../../../main/engine/timecode/timeline.js';
import { TRANSCRIPT } from '../captions/editors/scenarios.js';

const count = (tc: string, r: FrameRate): number => new Timecode(tc, [r.num, r.den], r.dropFrame).frameCount;
const label = (frames: number, r: FrameRate): string => new Timecode(frames, [r.num, r.den], r.dropFrame).toString();

describe('midnight', () => {
  const pal = rateOf('25');
  const df = rateOf('29.97df');

  it('a clip whose frame after its end is still on the same day keeps its start', () => {
    const start = count('23:59:50:00', pal);
    // 23:59:50:00 + 249 frames = 23:59:59:24, the day's last label.
    expect(withinDay(start, 249, pal)).toEqual({ startFrame: start });
  });

  it('one frame more and the start moves back a whole hour, said', () => {
    const start = count('23:59:50:00', pal);
    const moved = withinDay(start, 250, pal);
    expect(label(moved.startFrame, pal)).toBe('22:59:50:00');
    expect(moved.note).toMatch(/23:59:50:00 runs past midnight.*1 hour earlier, at 22:59:50:00/);
  });

  it('as many hours as the clip needs, keeping minutes, seconds and frames in drop-frame too', () => {
    const start = count('23:59:50;02', df);
    const ninetyMinutes = 90 * 60 * 30;
    const moved = withinDay(start, ninetyMinutes, df);
    expect(label(moved.startFrame, df)).toBe('21:59:50;02');
    expect(moved.note).toMatch(/2 hours earlier/);
  });

  it('a clip longer than what is left of a day from 00:00 starts at the day’s start', () => {
    const hours25 = 25 * 3600 * 25;
    expect(withinDay(count('12:00:00:00', pal), hours25, pal).startFrame).toBe(0);
  });

  it('the timeline takes the media’s length from its facts; the media’s own start stays', () => {
    const facts: MediaFacts = {
      durationMs: 20_000,
      hasAudio: true,
      videoRate: { num: 25, den: 1, dropFrame: false },
      start: { kind: 'frames', frames: count('23:59:50:00', pal), rate: pal, from: 'tmcd' },
    };
    const t = timelineOf(facts);
    expect(t.mediaStartFrame).toBe(count('23:59:50:00', pal));
    expect(label(t.startFrame, pal)).toBe('22:59:50:00');
    expect(t.notes).toHaveLength(1);
    // Without a duration, the last word's end and the tail decide.
    const words = clipTimeline({ ...facts, durationMs: null }, undefined, 5_000);
    expect(words.startFrame).toBe(count('23:59:50:00', pal));
    expect(clipTimeline({ ...facts, durationMs: null }, undefined, 9_000).startFrame).toBe(count('22:59:50:00', pal));
  });
});

describe('the picture’s rate', () => {
  const r60 = rateOf('59.94df');

  it('a timecode at 29.97 DF on 59.94p picture: the timeline at 59.94 DF, the start converted', () => {
    const tc30 = { num: 30000, den: 1001, dropFrame: true };
    const facts: MediaFacts = {
      durationMs: 2000,
      hasAudio: true,
      videoRate: { num: 60000, den: 1001, dropFrame: false },
      start: { kind: 'frames', frames: count('12:34:56;10', tc30), rate: tc30, from: 'tmcd' },
    };
    const t = timelineOf(facts);
    expect(t.rate).toEqual(r60);
    expect(t.startFrame).toBe(count('12:34:56;20', r60));
    expect(renderItt(editorDocument({ sourcePath: '/m/c.mp4', transcript: TRANSCRIPT, mediaFacts: facts }))).toMatch(
      /ttp:frameRate="60" ttp:frameRateMultiplier="1000 1001" ttp:dropMode="dropNTSC"/,
    );
  });

  it('a track at another rate that is not a whole fraction of the picture’s keeps its own (23.976 track on 25p)', () => {
    const r23 = rateOf('23.976');
    const facts: MediaFacts = {
      durationMs: 2000,
      hasAudio: true,
      videoRate: { num: 25, den: 1, dropFrame: false },
      start: { kind: 'frames', frames: 86_400, rate: r23, from: 'tmcd' },
    };
    expect(timelineOf(facts).rate).toEqual(r23);
  });
});

describe('a fixed start moves the timeline, never the media', () => {
  const r23 = rateOf('23.976');
  const facts: MediaFacts = {
    durationMs: 20_000,
    hasAudio: true,
    videoRate: r23,
    start: { kind: 'frames', frames: count('01:00:00:00', r23), rate: r23, from: 'tmcd' },
  };
  const doc = editorDocument({
    sourcePath: '/m/a.mov',
    transcript: TRANSCRIPT,
    mediaFacts: facts,
    timeline: { start: '00:59:50:00', defaultRate: '25' },
  });
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'caption' });
  const t = (frames: number): string => `${frames * 1001}/24000s`;
  const own = count('01:00:00:00', r23);
  const fixed = count('00:59:50:00', r23);

  it('FCPXML: asset and clip start at the media’s timecode; tcStart and the clip’s offset at the fixed one', () => {
    const f = xml.parse(renderFcpxml(doc)) as {
      fcpxml: {
        resources: { asset: { start: string } };
        library: {
          event: {
            project: {
              sequence: {
                tcStart: string;
                spine: { 'asset-clip': { start: string; offset: string; caption: Array<{ offset: string }> } };
              };
            };
          };
        };
      };
    };
    expect(f.fcpxml.resources.asset.start).toBe(t(own));
    const seq = f.fcpxml.library.event.project.sequence;
    expect(seq.tcStart).toBe(t(fixed));
    expect(seq.spine['asset-clip']).toMatchObject({ start: t(own), offset: t(fixed) });
    // Captions anchored in the clip's source time: from the media's start.
    expect(seq.spine['asset-clip'].caption[0]!.offset).toBe(t(own + doc.captions[0]!.start));
  });

  it('xmeml: the file’s timecode is the media’s, the sequence’s the fixed one', () => {
    const x = xml.parse(renderPremiere(doc)) as {
      xmeml: {
        sequence: {
          timecode: { string: string };
          media: { video: { track: { clipitem: { file: { timecode: { string: string; frame: number } } } } } };
        };
      };
    };
    expect(x.xmeml.sequence.timecode.string).toBe('00:59:50:00');
    expect(x.xmeml.sequence.media.video.track.clipitem.file.timecode).toMatchObject({
      string: '01:00:00:00',
      frame: own,
    });
  });
});

describe('a start as typed', () => {
  it.each(['99:99:99:99', '24:00:00:00', '00:60:00:00', '00:00:60:00', '00:00:00:60', '1:00:00:00'])(
    '%s is refused, with the reason',
    (text) => {
      expect(timecodeTextProblem(text)).toMatch(/timecode|frame number/);
      expect(TIMELINE_SETTINGS.safeParse({ start: text }).success).toBe(false);
    },
  );
  it.each(['00:00:00:00', '23:59:59:59', '01:00:00;00'])('%s is taken', (text) => {
    expect(timecodeTextProblem(text)).toBeNull();
  });
});

describe('TXT stamps', () => {
  const pal = rateOf('25');
  const facts: MediaFacts = {
    durationMs: 20_000,
    hasAudio: true,
    videoRate: pal,
    start: { kind: 'frames', frames: count('11:42:13:14', pal), rate: pal, from: 'tmcd' },
  };

  it('at the source timecode when the clip has one, the clock from the media’s start when not', () => {
    const timeline = timelineOf(facts);
    const txt = renderTxt(TRANSCRIPT, { timestamps: true, stamp: (ms) => paragraphStamp(timeline, ms) });
    const first = TRANSCRIPT.words[0]!.startMs;
    const expected = label(count('11:42:13:14', pal) + Math.floor((first * 25) / 1000), pal);
    expect(txt.startsWith(`[${expected}] `)).toBe(true);
    const plain = timelineOf(null);
    expect(paragraphStamp(plain, 3_723_400)).toBe('01:02:03');
  });
});
