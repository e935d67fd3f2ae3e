import { describe, expect, it } from 'vitest';
import { SANDBOX } from '../../main/service/policy.js';
import { generateTranscript, plainSpelling } from '../../main/sandbox/transcript.js';
import { enhancedWords } from '../../main/sandbox/enhanced-transcript.js';

describe('transcript generator', () => {
  it.each([800, 4_000, 30_000, 600_000])('timings are monotonic and inside %i ms', (durationMs) => {
    const t = generateTranscript({ seed: `s${durationMs}`, durationMs });
    expect(t.words.length).toBeGreaterThan(0);
    let prevEnd = 0;
    for (const w of t.words) {
      expect(w.start).toBeGreaterThanOrEqual(prevEnd);
      expect(w.end).toBeGreaterThan(w.start);
      expect(w.end).toBeLessThanOrEqual(durationMs);
      expect(w.word.startsWith(' ')).toBe(true);
      expect(w.confidence).toBeGreaterThan(0.8);
      prevEnd = w.end;
    }
    expect(t.text).toBe(t.words.map((w) => w.word).join(''));
    expect(t.text).toContain(SANDBOX.simulatedNotice);
  });

  it('fills a long file with several sentences and leaves pauses between them', () => {
    const t = generateTranscript({ seed: 'long', durationMs: 120_000 });
    expect(t.sentences.length).toBeGreaterThan(10);
    expect(t.words.at(-1)!.end).toBeGreaterThan(100_000);
    const gaps = t.sentences.slice(1).map((s, i) => s.start - t.sentences[i]!.end);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(350);
    expect(t.sentences.every((s) => /[.?!]$/.test(s.text))).toBe(true);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const a = generateTranscript({ seed: 'x', durationMs: 60_000 });
    expect(generateTranscript({ seed: 'x', durationMs: 60_000 })).toEqual(a);
    expect(generateTranscript({ seed: 'y', durationMs: 60_000 }).text).not.toBe(a.text);
  });

  it('speechless media gives an empty transcription', () => {
    const t = generateTranscript({ seed: 'x', durationMs: 10_000, speechless: true });
    expect([t.text, t.words]).toEqual(['', []]);
  });

  it.each([
    [{ exact: 3 }, 3],
    [{ min: 4, max: 4 }, 4],
    [{ exact: 1 }, 1],
  ])('diarizes with speakers %j', (speakers, n) => {
    const t = generateTranscript({ seed: 'd', durationMs: 180_000, speakers });
    const seen = [...new Set(t.words.flatMap((w) => w.speakers ?? []))];
    expect(seen).toEqual(Array.from({ length: n }, (_, i) => `SPEAKER_${i}`));
    expect(t.utterances!.length).toBeGreaterThanOrEqual(n);
    for (const [i, u] of t.utterances!.entries()) {
      expect(u.text).toBe(u.words.map((w) => w.word).join(''));
      expect(u.words.every((w) => w.speakers?.[0] === u.speakerIds[0])).toBe(true);
      if (i > 0) expect(u.speakerIds[0]).not.toBe(t.utterances![i - 1]!.speakerIds[0]);
    }
  });

  it('without diarization there are no speakers nor utterances', () => {
    const t = generateTranscript({ seed: 'd', durationMs: 30_000 });
    expect(t.utterances).toBeUndefined();
    expect(t.words.some((w) => w.speakers !== undefined)).toBe(false);
  });

  it('tags languages per sentence when code switching', () => {
    const t = generateTranscript({ seed: 'l', durationMs: 60_000, languages: ['en', 'de'] });
    expect(new Set(t.words.map((w) => w.language))).toEqual(new Set(['en', 'de']));
  });

  it('stereo split puts channels "0" and "1" on words', () => {
    const t = generateTranscript({ seed: 'c', durationMs: 60_000, channels: 2 });
    expect(new Set(t.words.map((w) => w.channel))).toEqual(new Set(['0', '1']));
  });
});

describe('speech the file says (test-only tag)', () => {
  const speech = 'We shipped MoveFlow to Jürgen today. Ana María liked it!';

  it('is heard once after the notice, spelt as plain recognition spells names it does not know', () => {
    expect(plainSpelling('MoveFlow, Jürgen and Zoë.')).toBe('move flow, Jurgen and Zoe.');
    const t = generateTranscript({ seed: 'said', durationMs: 20_000, speech });
    expect(t.sentences.map((s) => s.text.trim())).toEqual([
      SANDBOX.simulatedNotice,
      'We shipped move flow to Jurgen today.',
      'Ana Maria liked it!',
    ]);
    expect(t.words.at(-1)!.end).toBeLessThanOrEqual(20_000);
  });

  it('is respelt by the enhanced transcription where the vocabulary names a term, times kept', () => {
    const t = generateTranscript({ seed: 'said', durationMs: 20_000, speech });
    const words = enhancedWords(t.words, 'MoveFlow, Jürgen, Ana María');
    const text = words.map((w) => w.word).join('');
    expect(text).toContain(' We shipped MoveFlow to Jürgen today. Ana María liked it!');
    const move = t.words.find((w) => w.word === ' move')!;
    const flow = t.words.find((w) => w.word === ' flow')!;
    expect(words.find((w) => w.word === ' MoveFlow')).toMatchObject({ start: move.start, end: flow.end });
    expect(words).toHaveLength(t.words.length - 1);
    expect(enhancedWords(t.words, '').map((w) => w.word)).toEqual(t.words.map((w) => w.word));
  });
});
