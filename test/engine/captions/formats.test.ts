import { readFileSync } from 'node:fs';
import { parseSync, type NodeCue } from 'subtitle';
import { describe, expect, it } from 'vitest';
import type { ExportResult, Word } from '../../../main/service/types.js';
import { buildCues, type Cue } from '../../../main/engine/captions/cues.js';
import {
  csvField,
  renderCsv,
  renderSrt,
  renderTxt,
  renderVtt,
  srtTime,
  vttTime,
} from '../../../main/engine/captions/formats.js';
import { normalizeExport } from '../../../main/engine/captions/normalize.js';
import { CAPTION_RENDERERS } from '../../../main/engine/captions/render.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../fixtures/captions/${name}`, import.meta.url), 'utf8');
const twoSpeakers = fixture('two-speakers.json');
const ctx = { sourceName: 'call.wav' };

/** Parses with the `subtitle` package and checks the file against the cues it came from. */
export function expectRoundTrip(file: string, cues: readonly Cue[], format: 'srt' | 'vtt'): void {
  const parsed = parseSync(file).filter((n): n is NodeCue => n.type === 'cue');
  expect(parsed).toHaveLength(cues.length);
  parsed.forEach((p, i) => {
    const c = cues[i]!;
    expect([p.data.start, p.data.end]).toEqual([c.startMs, c.endMs]);
    expect(p.data.start).toBeLessThan(p.data.end);
    if (i > 0) expect(p.data.start).toBeGreaterThanOrEqual(parsed[i - 1]!.data.end);
    const text =
      format === 'srt'
        ? p.data.text.replace(/^Speaker \d+: /, '')
        : p.data.text
            .replace(/^<v [^>]*>/, '')
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&amp;/g, '&');
    expect(text).toBe(c.lines.join('\n'));
  });
}

describe('golden files: two speakers, sentence ends and a pause', () => {
  it.each(['srt', 'vtt', 'txt', 'csv'] as const)('%s', (format) => {
    expect(CAPTION_RENDERERS[format](twoSpeakers, ctx)).toBe(fixture(`two-speakers.${format}`));
  });

  it('SRT and VTT parse back to the same cues', () => {
    const cues = buildCues(normalizeExport(twoSpeakers).words);
    expect(cues).toHaveLength(5);
    expectRoundTrip(fixture('two-speakers.srt'), cues, 'srt');
    expectRoundTrip(fixture('two-speakers.vtt'), cues, 'vtt');
  });

  it('TXT with timestamps', () => {
    expect(CAPTION_RENDERERS.txt(twoSpeakers, { ...ctx, txtTimestamps: true })).toBe(
      '[00:00:00] Speaker 1: Good morning, thanks for calling the front desk. How can I help you today?\n\n' +
        "[00:00:04] Speaker 2: Hi, I'd like to book a table for two tonight, around eight o'clock.\n\n" +
        '[00:00:09] Speaker 1: Perfect.\n',
    );
  });
});

describe('timestamps', () => {
  it.each([
    [0, '00:00:00,000', '00:00:00.000'],
    [1005, '00:00:01,005', '00:00:01.005'],
    [3_723_456, '01:02:03,456', '01:02:03.456'],
    [100 * 3_600_000, '100:00:00,000', '100:00:00.000'],
  ])('%d ms', (ms, srt, vtt) => {
    expect(srtTime(ms)).toBe(srt);
    expect(vttTime(ms)).toBe(vtt);
  });
});

describe('empty transcript: valid empty files', () => {
  const empty = JSON.stringify({ transcription: { text: '', words: [] } });
  it.each([
    ['srt', ''],
    ['vtt', 'WEBVTT\n'],
    ['txt', ''],
    ['csv', 'start,end,speaker,text\r\n'],
  ] as const)('%s', (format, expected) => {
    expect(CAPTION_RENDERERS[format](empty, ctx)).toBe(expected);
  });

  it('parse without error', () => {
    expect(parseSync(CAPTION_RENDERERS.vtt(empty, ctx)!).filter((n) => n.type === 'cue')).toEqual([]);
    expect(parseSync(CAPTION_RENDERERS.srt(empty, ctx)!)).toEqual([]);
  });

  it('TXT keeps the text when there are no word timings', () => {
    const e: ExportResult = { transcription: { text: ' Only text here.', words: [] } };
    expect(CAPTION_RENDERERS.txt(JSON.stringify(e), ctx)).toBe('Only text here.\n');
  });
});

describe('speaker labels players keep', () => {
  const words: Word[] = [
    { word: ' Hi.', start: 0, end: 400, speakers: ['SPEAKER_3'] },
    { word: ' Hello.', start: 1500, end: 1900, speakers: ['SPEAKER_7'] },
  ];
  const text = JSON.stringify({ transcription: { text: ' Hi. Hello.', words } });

  it('SRT: a plain "Speaker N: " prefix, never raw ids or brackets', () => {
    const srt = CAPTION_RENDERERS.srt(text, ctx)!;
    expect(srt).toContain('Speaker 1: Hi.');
    expect(srt).toContain('Speaker 2: Hello.');
    expect(srt.replaceAll(' --> ', ' ')).not.toMatch(/SPEAKER_|[[\]<>]/);
  });

  it('VTT: voice tags', () => {
    const vtt = CAPTION_RENDERERS.vtt(text, ctx)!;
    expect(vtt).toContain('<v Speaker 1>Hi.');
    expect(vtt).toContain('<v Speaker 2>Hello.');
  });

  it('VTT escapes markup characters in words; the file still parses back', () => {
    const t = normalizeExport({ transcription: { text: '', words: [{ word: ' a<b>&c', start: 0, end: 500 }] } });
    const cues = buildCues(t.words);
    const vtt = renderVtt(cues);
    expect(vtt).toContain('a&lt;b&gt;&amp;c');
    expectRoundTrip(vtt, cues, 'vtt');
  });

  it('undiarized files carry no labels', () => {
    const plain = JSON.stringify({ transcription: { text: ' Hi.', words: [{ word: ' Hi.', start: 0, end: 400 }] } });
    expect(CAPTION_RENDERERS.srt(plain, ctx)).toBe('1\n00:00:00,000 --> 00:00:01,000\nHi.\n');
    expect(CAPTION_RENDERERS.vtt(plain, ctx)).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHi.\n');
  });
});

describe('TXT paragraphs', () => {
  it('without speakers, a pause of 2 s starts a paragraph', () => {
    const words: Word[] = [
      { word: ' One.', start: 0, end: 400 },
      { word: ' Two.', start: 1000, end: 1400 },
      { word: ' Three.', start: 3400, end: 3800 },
    ];
    const t = normalizeExport({ transcription: { text: '', words } });
    expect(renderTxt(t)).toBe('One. Two.\n\nThree.\n');
    expect(renderTxt(t, { timestamps: true })).toBe('[00:00:00] One. Two.\n\n[00:00:03] Three.\n');
  });
});

describe('CSV (RFC 4180)', () => {
  it.each([
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    // Formula injection: text a spreadsheet would evaluate is kept as text.
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['+1 for that', '"\'+1 for that"'],
    ['-- well', '"\'-- well"'],
    ['@SUM(A1)', '"\'@SUM(A1)"'],
    ['\tcmd', '"\'\tcmd"'],
    ['-12.5', '-12.5'],
    [-3, '-3'],
    ['1e-7', '1e-7'],
  ])('%j → %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('rows: seconds with 3 decimals, empty speaker when undiarized, CRLF', () => {
    const t = normalizeExport({
      transcription: { text: '', words: [{ word: ' He said "no", twice.', start: 1234, end: 2500 }] },
    });
    expect(renderCsv(buildCues(t.words))).toBe('start,end,speaker,text\r\n1.234,2.500,,"He said ""no"", twice."\r\n');
  });
});

describe('renderSrt / renderVtt on long transcripts', () => {
  it('numbers cues from 1 and separates them by one blank line', () => {
    const words = Array.from({ length: 60 }, (_, i) => ({
      text: `word${i}.`,
      startMs: i * 1500,
      endMs: i * 1500 + 400,
      spaceBefore: true,
    }));
    const cues = buildCues(words);
    const srt = renderSrt(cues);
    expect(srt.split('\n\n').map((b) => b.split('\n')[0])).toEqual(cues.map((_, i) => String(i + 1)));
    expectRoundTrip(srt, cues, 'srt');
    expectRoundTrip(renderVtt(cues), cues, 'vtt');
  });
});

describe('SRT text in angle brackets', () => {
  it('is written with ‹ › so tag-stripping readers keep it; the rest of the text as it is', () => {
    const words = ['café', '&', '<crème>', 'brûlée', '>', 'done.'].map((text, i) => ({
      text,
      startMs: i * 400,
      endMs: i * 400 + 300,
      speaker: 'Jürgen & <Zoë>',
      spaceBefore: i > 0,
    }));
    const srt = renderSrt(buildCues(words));
    expect(srt.replaceAll(' --> ', ' ')).not.toMatch(/[<>]/);
    const [cue] = parseSync(srt).filter((n): n is NodeCue => n.type === 'cue');
    expect(cue!.data.text.replace(/\n/g, ' ')).toBe('Jürgen & ‹Zoë›: café & ‹crème› brûlée › done.');
  });
});
