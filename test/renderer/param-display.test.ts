import { describe, expect, it } from 'vitest';
import { paramLines } from '../../renderer/src/lib/param-display.js';

describe('a job’s parameters as read in its details', () => {
  it('folds a recipe’s answer format into indented JSON with a summary of its fields', () => {
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, chapters: { type: 'array', items: { type: 'string' } } },
      required: ['title', 'chapters'],
      additionalProperties: false,
    };
    const [line] = paramLines({ ask0Format: JSON.stringify(schema) });
    expect(line?.jsonLabel).toBe('JSON Schema, 2 fields');
    expect(line?.json).toBe(JSON.stringify(schema, null, 2));
    expect(line?.json?.split('\n').length).toBeGreaterThan(10);
  });

  it('joins lists and leaves plain text, numbers and text that only looks like JSON as sent', () => {
    const lines = paramLines({
      language: ['en', 'de'],
      ask0: 'Divide this episode into chapters {one per topic}',
      speakers: 2,
      broken: '{"not closed": ',
      list: '[1, 2, 3]',
    });
    expect(lines.map((l) => [l.name, l.text, l.jsonLabel])).toEqual([
      ['language', 'en, de', undefined],
      ['ask0', 'Divide this episode into chapters {one per topic}', undefined],
      ['speakers', '2', undefined],
      ['broken', '{"not closed": ', undefined],
      ['list', '[1, 2, 3]', 'JSON list, 3 entries'],
    ]);
  });
});
