// The editor's own markers, made in the review at the playhead: a name, a note and a colour, kept
// in the corrections layer like any correction (so undo, redo and revert cover them, and they
// survive every rewrite and re-export) and written into the editor formats beside the
// paragraphs' markers. Ids are given here, in order, so replaying the layer gives the same ids.
// Pure.
import { z } from 'zod';
// Colours DaVinci Resolve, Premiere Pro and Avid all have a marker of (Resolve's names).
import { USER_MARKER_COLOURS, type UserMarkerColour } from '../../../common/marker-colours.js';
import { MARKER_LIMITS } from '../../../common/edit-limits.js';

export { USER_MARKER_COLOURS, type UserMarkerColour };

export interface UserMarker {
  /** `m1`, `m2`, …: stable across replays of the layer. */
  id: string;
  /** Milliseconds from the media's start. */
  atMs: number;
  name: string;
  note: string;
  colour: UserMarkerColour;
}

export type MarkerEdit =
  | { kind: 'addMarker'; atMs: number; name: string; note: string; colour: UserMarkerColour }
  /** Changes what is given: a rename, a new note or colour, or a move (to the playhead). */
  | {
      kind: 'updateMarker';
      id: string;
      atMs?: number;
      name?: string;
      note?: string;
      colour?: UserMarkerColour;
    }
  | { kind: 'removeMarker'; id: string };

export { MARKER_LIMITS };

const atMs = z
  .number()
  .int()
  .min(0)
  .max(48 * 3600 * 1000);
const name = z.string().max(MARKER_LIMITS.name * 4);
const note = z.string().max(MARKER_LIMITS.note * 4);
const colour = z.enum(USER_MARKER_COLOURS);
const id = z.string().min(1).max(MARKER_LIMITS.id);

/** The marker edits as the corrections file and the bridge accept them. */
export const MARKER_EDITS = [
  z.object({ kind: z.literal('addMarker'), atMs, name, note, colour }),
  z.object({
    kind: z.literal('updateMarker'),
    id,
    atMs: atMs.optional(),
    name: name.optional(),
    note: note.optional(),
    colour: colour.optional(),
  }),
  z.object({ kind: z.literal('removeMarker'), id }),
] as const;

export class MarkerEditError extends Error {}

/** One line, trimmed, within `max` characters; `fallback` when nothing is left. */
function clean(text: string, max: number, what: string, fallback?: string): string {
  const t = text.replace(/\s+/gu, ' ').trim();
  if (Array.from(t).length > max) throw new MarkerEditError(`A marker's ${what} has at most ${max} characters.`);
  if (t === '' && fallback !== undefined) return fallback;
  return t;
}

const byTime = (a: UserMarker, b: UserMarker): number =>
  a.atMs - b.atMs || Number(a.id.slice(1)) - Number(b.id.slice(1));

/** The markers after one edit, in time order. Throws MarkerEditError when it does not fit. */
export function applyMarkerEdit(markers: readonly UserMarker[], edit: MarkerEdit): UserMarker[] {
  switch (edit.kind) {
    case 'addMarker': {
      if (markers.length >= MARKER_LIMITS.markers)
        throw new MarkerEditError(`A file keeps at most ${MARKER_LIMITS.markers} markers (an EDL holds no more).`);
      const next = 1 + Math.max(0, ...markers.map((m) => Number(m.id.slice(1)) || 0));
      const added: UserMarker = {
        id: `m${next}`,
        atMs: Math.max(0, Math.round(edit.atMs)),
        name: clean(edit.name, MARKER_LIMITS.name, 'name', `Marker ${next}`),
        note: clean(edit.note, MARKER_LIMITS.note, 'note'),
        colour: edit.colour,
      };
      return [...markers, added].sort(byTime);
    }
    case 'updateMarker': {
      const old = markers.find((m) => m.id === edit.id);
      if (!old) throw new MarkerEditError('That marker is no longer there.');
      const updated: UserMarker = {
        ...old,
        ...(edit.atMs === undefined ? {} : { atMs: Math.max(0, Math.round(edit.atMs)) }),
        ...(edit.name === undefined ? {} : { name: clean(edit.name, MARKER_LIMITS.name, 'name', old.name) }),
        ...(edit.note === undefined ? {} : { note: clean(edit.note, MARKER_LIMITS.note, 'note') }),
        ...(edit.colour === undefined ? {} : { colour: edit.colour }),
      };
      return markers.map((m) => (m.id === edit.id ? updated : m)).sort(byTime);
    }
    case 'removeMarker': {
      if (!markers.some((m) => m.id === edit.id)) throw new MarkerEditError('That marker is no longer there.');
      return markers.filter((m) => m.id !== edit.id);
    }
  }
}

export const isMarkerEdit = (e: { kind: string }): e is MarkerEdit =>
  e.kind === 'addMarker' || e.kind === 'updateMarker' || e.kind === 'removeMarker';
