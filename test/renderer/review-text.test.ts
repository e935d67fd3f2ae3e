import { describe, expect, it } from 'vitest';
import type { TranscriptView } from '../../preload/contract.js';
import { formatTimestamp, transcriptText } from '../../renderer/src/lib/state/review-text.js';

const view: Pick<TranscriptView, 'words' | 'paragraphs' | 'speakers'> = {
  words: [
    { text: 'Good', start: 0, end: 300, speaker: '1', corrected: false },
    { text: 'afternoon.', start: 300, end: 900, speaker: '1', corrected: false },
    { text: 'Hello', start: 62_000, end: 62_400, speaker: '2', corrected: true },
    { text: 'there.', start: 62_400, end: 63_000, speaker: '2', corrected: false },
  ],
  paragraphs: [
    { first: 0, end: 2, speaker: '1', startMs: 0, endMs: 900 },
    { first: 2, end: 4, speaker: '2', startMs: 62_000, endMs: 63_000 },
  ],
  speakers: [
    { id: '1', name: 'Ana', renamed: true },
    { id: '2', name: 'Speaker 2', renamed: false },
  ],
};

describe('formatTimestamp', () => {
  it.each([
    [0, false, '0:00'],
    [61_999, false, '1:01'],
    [3_723_000, false, '1:02:03'],
    [62_000, true, '0:01:02'],
  ])('%i ms (hours: %s) → %s', (ms, hours, text) => expect(formatTimestamp(ms, hours)).toBe(text));
});

describe('transcriptText', () => {
  it('copies the whole transcript as paragraphs', () => {
    expect(transcriptText(view, { timestamps: false, speakers: false })).toBe('Good afternoon.\n\nHello there.');
  });
  it('adds timestamps and speaker names on request', () => {
    expect(transcriptText(view, { timestamps: true, speakers: true })).toBe(
      '[0:00] Ana: Good afternoon.\n\n[1:02] Speaker 2: Hello there.',
    );
    expect(transcriptText(view, { timestamps: false, speakers: true })).toBe(
      'Ana: Good afternoon.\n\nSpeaker 2: Hello there.',
    );
  });
  it('copies a range across paragraphs, stamped at its first word', () => {
    expect(transcriptText(view, { timestamps: true, speakers: false }, { from: 1, to: 3 })).toBe(
      '[0:00] afternoon.\n\n[1:02] Hello',
    );
  });
});
