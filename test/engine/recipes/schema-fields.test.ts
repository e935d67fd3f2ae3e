// An answer schema in words: every field of the recipes' schemas listed with its path, kind and
// description, lists with their bounds, in the schema's order.
import { describe, expect, it } from 'vitest';
import { RECIPES } from '../../../main/engine/recipes/recipes.js';
import { schemaFields } from '../../../main/engine/recipes/schema-fields.js';

describe('schemaFields', () => {
  it('lists the chapters answer: the title, the list with its bounds, and each entry’s fields', () => {
    const chapters = RECIPES.podcast.prompts[0]!.format;
    expect(schemaFields(chapters)).toEqual([
      { path: 'title', type: 'text', description: 'A title for the whole recording, at most ten words.' },
      { path: 'chapters', type: 'list of 1–20 entries', description: '' },
      { path: 'chapters[].title', type: 'text', description: 'The chapter title, at most six words.' },
      { path: 'chapters[].firstWords', type: 'text', description: expect.stringContaining('copied exactly') },
    ]);
  });

  it('names a list of plain values by their kind, and bounds given on one side only', () => {
    expect(schemaFields(RECIPES.podcast.prompts[2]!.format)).toEqual([
      { path: 'keywords', type: 'list of 1–12 text items', description: '' },
      { path: 'keywords[]', type: 'text', description: 'One keyword or short phrase.' },
    ]);
    const actions = schemaFields(RECIPES.meeting.prompts[1]!.format);
    expect(actions.map((f) => f.path)).toEqual(['actions', 'actions[].task', 'actions[].owner', 'actions[].due']);
    expect(actions[0]?.type).toBe('list of up to 30 entries');
    expect(
      schemaFields({
        type: 'object',
        properties: { n: { type: 'integer' }, ok: { type: 'boolean' }, xs: { type: 'array', minItems: 2 } },
      }),
    ).toEqual([
      { path: 'n', type: 'whole number', description: '' },
      { path: 'ok', type: 'yes or no', description: '' },
      { path: 'xs', type: 'list of at least 2 items', description: '' },
      { path: 'xs[]', type: 'any value', description: '' },
    ]);
  });

  it('every field of every recipe has a path and a kind', () => {
    for (const r of Object.values(RECIPES)) {
      for (const p of r.prompts) {
        const fields = schemaFields(p.format);
        expect(fields.length).toBeGreaterThan(0);
        for (const f of fields) expect(f.path && f.type).toBeTruthy();
      }
    }
  });
});
