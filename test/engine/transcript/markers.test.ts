// The editor's own markers as corrections: added at a moment with a name, note and colour,
// renamed, moved and deleted, and undone and redone by replaying the layer (same ids each time).
import { describe, expect, it } from 'vitest';
import { normalizeExport } from '../../../main/engine/captions/normalize.js';
import {
  CORRECTIONS_LAYER,
  emptyLayer,
  isCorrected,
  record,
  redo,
  replay,
  undo,
} from '../../../main/engine/transcript/corrections.js';
import { applyEdit, TranscriptEditError } from '../../../main/engine/transcript/transcript-edit.js';
import { normalizedOf, transcriptOf } from '../../../main/engine/transcript/transcript.js';
import { readFileSync } from 'node:fs';

const FIXTURE = readFileSync(new URL('../../fixtures/captions/two-speakers.json', import.meta.url), 'utf8');
const base = transcriptOf(normalizeExport(FIXTURE));

describe('markers in the corrections layer', () => {
  it('are added, renamed, moved and removed, kept in time order, with ids that replay the same', () => {
    let layer = emptyLayer('h');
    layer = record(layer, { kind: 'addMarker', atMs: 5000, name: 'Good bite', note: 'keep', colour: 'Green' });
    layer = record(layer, { kind: 'addMarker', atMs: 1200, name: '  ', note: '', colour: 'Red' });
    let t = replay(base, layer);
    expect(t.markers).toEqual([
      { id: 'm2', atMs: 1200, name: 'Marker 2', note: '', colour: 'Red' },
      { id: 'm1', atMs: 5000, name: 'Good bite', note: 'keep', colour: 'Green' },
    ]);
    expect(isCorrected(base, t)).toBe(true);
    layer = record(layer, { kind: 'updateMarker', id: 'm1', atMs: 800, name: 'Opening' });
    t = replay(base, layer);
    expect(t.markers?.map((m) => [m.id, m.atMs, m.name])).toEqual([
      ['m1', 800, 'Opening'],
      ['m2', 1200, 'Marker 2'],
    ]);
    layer = record(layer, { kind: 'removeMarker', id: 'm2' });
    expect(replay(base, layer).markers?.map((m) => m.id)).toEqual(['m1']);
    // Undo twice: the move and the removal are gone; redo brings the move back.
    layer = undo(undo(layer));
    expect(replay(base, layer).markers?.map((m) => [m.id, m.atMs])).toEqual([
      ['m2', 1200],
      ['m1', 5000],
    ]);
    layer = redo(layer);
    expect(replay(base, layer).markers?.[0]).toMatchObject({ id: 'm1', atMs: 800 });
    // The layer as saved on disk reads back.
    expect(CORRECTIONS_LAYER.parse(JSON.parse(JSON.stringify(layer)))).toEqual(layer);
    // The words are not touched, and the captions' transcript carries the markers.
    expect(replay(base, layer).words).toBe(base.words);
    expect(normalizedOf(replay(base, layer)).markers?.length).toBe(2);
  });

  it('refuses a marker that is not there and a name too long, changing nothing', () => {
    expect(() => applyEdit(base, { kind: 'removeMarker', id: 'm9' })).toThrow(TranscriptEditError);
    expect(() =>
      applyEdit(base, { kind: 'addMarker', atMs: 0, name: 'x'.repeat(101), note: '', colour: 'Blue' }),
    ).toThrow(/at most 100/);
  });
});
