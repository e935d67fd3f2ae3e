// Every SRT and VTT checked against its caption preset: lines per cue, characters per line, time
// on screen, gaps between cues; parsed back with the `subtitle` package, as a player would.
import fc from 'fast-check';
import { parseSync, type NodeCue } from 'subtitle';
import { describe, expect, it } from 'vitest';
import { CAPTION_RENDERERS } from '../../../main/engine/captions/render.js';
import {
  CAPTION_PRESETS,
  CAPTION_SETTINGS,
  cueOptionsOf,
  reflowCaptions,
  type CaptionSettings,
} from '../../../main/engine/captions/presets.js';

/** An export of `n` words by up to three speakers, with pauses and sentence ends here and there. */
function exportOf(seed: number[]): string {
  let t = 0;
  const words = seed.map((r, i) => {
    const start = t + (r % 7 === 0 ? 900 : 60);
    const len = 150 + (r % 500);
    t = start + len;
    const text = ['media', 'editors', 'need', 'captions', 'that', 'read', 'well,', 'everywhere.', 'Überraschung'][
      r % 9
    ]!;
    return { word: ` ${text}`, start, end: t, speakers: [`SPEAKER_${Math.floor(i / 25) % 3}`] };
  });
  return JSON.stringify({ transcription: { text: '', words } });
}

function check(text: string, c: CaptionSettings): void {
  const cues = parseSync(text)
    .filter((n): n is NodeCue => n.type === 'cue')
    .map((n) => n.data);
  expect(cues.length).toBeGreaterThan(0);
  cues.forEach((cue, i) => {
    const lines = cue.text.replace(/<v [^>]*>/g, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(c.lines);
    for (const l of lines) {
      // A single word longer than the line (with its speaker label) stands alone rather than being cut.
      if (!/\s/.test(l.replace(/^Speaker \d+: /, ''))) continue;
      expect(Array.from(l.replace(/&amp;/g, '&')).length).toBeLessThanOrEqual(c.charsPerLine);
    }
    const shown = cue.end - cue.start;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(c.maxDurationMs);
    const next = cues[i + 1];
    if (next) {
      expect(next.start - cue.end).toBeGreaterThanOrEqual(c.minGapMs);
      // Shorter than the minimum only where the next cue leaves no room for it.
      if (shown < c.minDurationMs) expect(next.start - c.minGapMs).toBeLessThan(cue.start + c.minDurationMs);
    } else expect(shown).toBeGreaterThanOrEqual(Math.min(c.minDurationMs, c.maxDurationMs));
  });
}

const presets: CaptionSettings[] = [
  ...Object.values(CAPTION_PRESETS),
  {
    preset: 'custom',
    charsPerLine: 20,
    lines: 3,
    minDurationMs: 1500,
    maxDurationMs: 3000,
    minGapMs: 120,
    speakerLabels: true,
  },
];

describe('caption presets', () => {
  it('a named preset always means its own values; custom keeps the editor’s', () => {
    expect(CAPTION_SETTINGS.parse({ preset: 'vertical', charsPerLine: 80 })).toEqual(CAPTION_PRESETS.vertical);
    expect(CAPTION_PRESETS.broadcast).toMatchObject({ charsPerLine: 37, lines: 2 });
    expect(CAPTION_PRESETS.streaming).toMatchObject({
      charsPerLine: 42,
      lines: 2,
      minDurationMs: 1000,
      maxDurationMs: 7000,
    });
    expect(CAPTION_PRESETS.vertical).toMatchObject({ charsPerLine: 32, lines: 1 });
    expect(CAPTION_SETTINGS.parse(presets[3])).toEqual(presets[3]);
    expect(() => CAPTION_SETTINGS.parse({ preset: 'custom', minDurationMs: 5000, maxDurationMs: 1000 })).toThrow();
  });

  it('the preset chooses speaker labels: none on Vertical unless asked for, and none may be asked of any', () => {
    const text = exportOf(Array.from({ length: 80 }, (_, i) => i * 37));
    const srt = (c: CaptionSettings): string =>
      CAPTION_RENDERERS.srt(text, { sourceName: 'a.wav', cues: cueOptionsOf(c) })!;
    const vtt = (c: CaptionSettings): string =>
      CAPTION_RENDERERS.vtt(text, { sourceName: 'a.wav', cues: cueOptionsOf(c) })!;
    expect(srt(CAPTION_PRESETS.broadcast)).toMatch(/^Speaker 1: /m);
    expect(srt(CAPTION_PRESETS.vertical)).not.toMatch(/Speaker \d/);
    expect(vtt(CAPTION_PRESETS.vertical)).not.toMatch(/<v /);
    expect(vtt(CAPTION_PRESETS.streaming)).toMatch(/<v Speaker 1>/);
    const labelled = CAPTION_SETTINGS.parse({ preset: 'vertical', speakerLabels: true });
    expect(labelled).toEqual({ ...CAPTION_PRESETS.vertical, speakerLabels: true });
    expect(srt(labelled)).toMatch(/^Speaker 1: /m);
    const bare = CAPTION_SETTINGS.parse({ preset: 'broadcast', speakerLabels: false });
    expect(srt(bare)).not.toMatch(/Speaker \d/);
    // Settings kept before the choice existed: labelled, except Vertical, which never wanted them.
    expect(CAPTION_SETTINGS.parse({ preset: 'custom' }).speakerLabels).toBe(true);
    expect(CAPTION_SETTINGS.parse({ preset: 'vertical' }).speakerLabels).toBe(false);
  });

  for (const c of presets) {
    it(`${c.preset} (${c.lines} × ${c.charsPerLine}): every SRT and VTT cue fits`, () => {
      fc.assert(
        fc.property(fc.array(fc.nat(10_000), { minLength: 1, maxLength: 300 }), (seed) => {
          const text = exportOf(seed);
          const ctx = { sourceName: 'a.wav', cues: cueOptionsOf(c) };
          check(CAPTION_RENDERERS.srt(text, ctx)!, c);
          check(CAPTION_RENDERERS.vtt(text, ctx)!, c);
        }),
        { numRuns: 40 },
      );
    });
  }
});

describe('reflowCaptions (S3-9: another layout goes beside unless asked to replace)', () => {
  const streaming = { captions: CAPTION_PRESETS.streaming };
  it.each([
    ['beside, as one more layout', streaming, 'vertical', false, { moreCaptions: ['vertical'] }],
    [
      'beside, after those there',
      { ...streaming, moreCaptions: ['broadcast' as const] },
      'vertical',
      false,
      { moreCaptions: ['broadcast', 'vertical'] },
    ],
    [
      'beside, once',
      { ...streaming, moreCaptions: ['vertical' as const] },
      'vertical',
      false,
      { moreCaptions: ['vertical'] },
    ],
    ['nothing: the main captions are in it already', streaming, 'streaming', false, {}],
    ['no output: the default layout is the main one', undefined, 'broadcast', false, { moreCaptions: ['broadcast'] }],
    ['replace, when asked', streaming, 'vertical', true, { captions: CAPTION_PRESETS.vertical }],
  ] as const)('%s', (_why, output, id, replace, expected) => {
    expect(reflowCaptions(output, id, replace)).toEqual(expected);
  });
});
