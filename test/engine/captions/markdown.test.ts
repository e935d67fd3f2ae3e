import { describe, expect, it } from 'vitest';
import type { ExportResult } from '../../../main/service/types.js';
import { questionsFromParams, renderAnswer, renderMarkdown } from '../../../main/engine/captions/markdown.js';
import { CAPTION_RENDERERS } from '../../../main/engine/captions/render.js';

const transcriptOnly: ExportResult = { transcription: { text: ' Hi.', words: [{ word: ' Hi.', start: 0, end: 300 }] } };

const full: ExportResult = {
  ...transcriptOnly,
  summary: { content: '- A caller asks to book a table for two.\n- The host asks for the time.' },
  sentimentAnalysis: {
    segments: [
      { text: ' a', sentiment: 'positive', startTime: 0, endTime: 10, score: 0.6 },
      { text: ' b', sentiment: 'neutral', startTime: 10, endTime: 20, score: 0.2 },
    ],
    summary: { negativeCount: 0, positiveCount: 1, neutralCount: 1, averageScore: 0.4, sentiment: 'positive' },
  },
  askAnything: {
    '0': { promptId: '0', content: 'The booking of a table.', responseFormatSpecification: null },
    booking: { promptId: 'booking', content: '{"party_size":2,"time_given":false}', responseFormatSpecification: null },
  },
};

describe('renderMarkdown', () => {
  it('nothing to write without summary, sentiment or answers (null = skip the format)', () => {
    expect(renderMarkdown(transcriptOnly, { sourceName: 'a.wav' })).toBeNull();
    expect(CAPTION_RENDERERS.md(JSON.stringify(transcriptOnly), { sourceName: 'a.wav' })).toBeNull();
    expect(CAPTION_RENDERERS.md('not json', { sourceName: 'a.wav' })).toBeNull();
  });

  it('title, summary, sentiment overview, answers with their questions', () => {
    const md = renderMarkdown(full, {
      sourceName: 'call_01.wav',
      questions: { '0': 'What is discussed?', booking: 'Extract the booking' },
    });
    expect(md).toBe(
      [
        '# call\\_01.wav',
        '',
        '## Summary',
        '',
        '- A caller asks to book a table for two.',
        '- The host asks for the time.',
        '',
        '## Sentiment',
        '',
        'Overall: **positive**, average score 0.40 (−1 negative … 1 positive).',
        '',
        '| Sentiment | Segments |',
        '|---|---:|',
        '| Positive | 1 |',
        '| Neutral | 1 |',
        '| Negative | 0 |',
        '',
        '## Questions',
        '',
        '### What is discussed?',
        '',
        'The booking of a table.',
        '',
        '### Extract the booking',
        '',
        '- **party\\_size**: 2',
        '- **time\\_given**: false',
        '',
      ].join('\n'),
    );
  });

  it('per-channel sentiment for stereo files', () => {
    const summary = { ...full.sentimentAnalysis!.summary };
    const stereo: ExportResult = {
      sentimentAnalysis: {
        segments: [],
        summary: { ...summary, channels: [{ ...summary, channel: 1, sentiment: 'negative', averageScore: -0.5 }] },
      },
    };
    expect(renderMarkdown(stereo, { sourceName: 's.wav' })).toContain(
      '### Channel 1\n\nOverall: **negative**, average score -0.50.',
    );
  });

  it('an unknown question falls back to the prompt id', () => {
    expect(
      renderMarkdown(
        { askAnything: { x: { promptId: 'x', content: 'ok', responseFormatSpecification: null } } },
        { sourceName: 'a' },
      ),
    ).toContain('### Prompt x\n\nok');
  });
});

describe('renderAnswer', () => {
  it.each([
    ['plain text stays as written', 'Two people talk.', 'Two people talk.'],
    [
      'a flat JSON object becomes a list',
      '{"who":"Ana","ok":true,"n":null}',
      '- **who**: Ana\n- **ok**: true\n- **n**: —',
    ],
    ['a JSON array of scalars becomes a list', '["budget","shipping"]', '- budget\n- shipping'],
    ['nested JSON becomes a code block', '{"a":{"b":1}}', '```json\n{\n  "a": {\n    "b": 1\n  }\n}\n```'],
    ['broken JSON is shown as written', '{"a":', '{"a":'],
    ['empty content', '  ', '_(no answer)_'],
  ])('%s', (_name, content, expected) => {
    expect(renderAnswer(content)).toBe(expected);
  });

  it('a fence longer than any backtick run inside', () => {
    expect(renderAnswer('{"code":["```x```", {"y":1}]}')).toMatch(/^````json\n/);
  });
});

describe('questionsFromParams', () => {
  it('maps prompt ids (askNId, else the slot) to the questions', () => {
    expect(
      questionsFromParams({ ask0: 'What is discussed?', ask1: 'Extract', ask1Id: 'booking', ask2: ' ', summary: true }),
    ).toEqual({ '0': 'What is discussed?', booking: 'Extract' });
  });
});
