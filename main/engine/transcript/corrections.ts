// The corrections layer: every change the editor made to the service's transcript, in order, with
// an undo position. The corrected transcript is always the service's transcript with the first
// `applied` changes replayed on it, so undo and redo restore exactly what was there (no inverse
// operations to get wrong). A revert is a change too, and can be undone. Pure.
import { z } from 'zod';
import { OUTLINE_EDITS } from '../recipes/outline-edit.js';
import { MARKER_EDITS } from './markers.js';
import { applyEdit, type TranscriptEdit } from './transcript-edit.js';
import type { Transcript } from './transcript.js';

export type Correction = TranscriptEdit | { kind: 'revert' };

export interface CorrectionsLayer {
  version: 1;
  /** Fingerprint of the service's export these changes were made on (sha256, hex). */
  base: string;
  /** Bumped by every change, undo, redo and revert. */
  revision: number;
  changes: Correction[];
  /** changes[0..applied) are in effect; the rest can be redone. */
  applied: number;
}

const range = { from: z.number().int().min(0), to: z.number().int().min(0) };
export const CORRECTION = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('replace'), ...range, text: z.string().max(100_000) }),
  z.object({ kind: z.literal('renameSpeaker'), speaker: z.string().min(1).max(200), name: z.string().max(1000) }),
  z.object({ kind: z.literal('setSpeaker'), ...range, speaker: z.string().min(1).max(200) }),
  z.object({
    kind: z.literal('replaceMany'),
    replacements: z.array(z.object({ ...range, text: z.string().max(10_000) })).min(1),
  }),
  z.object({ kind: z.literal('revert') }),
  ...MARKER_EDITS,
  ...OUTLINE_EDITS,
]);

export const CORRECTIONS_LAYER = z
  .object({
    version: z.literal(1),
    base: z.string().min(1).max(200),
    revision: z.number().int().min(0),
    changes: z.array(CORRECTION),
    applied: z.number().int().min(0),
  })
  .refine((l) => l.applied <= l.changes.length, 'applied must not exceed the number of changes');

export function emptyLayer(base: string): CorrectionsLayer {
  return { version: 1, base, revision: 0, changes: [], applied: 0 };
}

/** The service's transcript with the layer's applied changes. */
export function replay(base: Transcript, layer: CorrectionsLayer): Transcript {
  let t = base;
  for (const c of layer.changes.slice(0, layer.applied)) t = c.kind === 'revert' ? base : applyEdit(t, c);
  return t;
}

/** A new change on top of what is applied; whatever was undone can no longer be redone. */
export function record(layer: CorrectionsLayer, change: Correction): CorrectionsLayer {
  const changes = [...layer.changes.slice(0, layer.applied), change];
  return { ...layer, changes, applied: changes.length, revision: layer.revision + 1 };
}

export const canUndo = (l: CorrectionsLayer): boolean => l.applied > 0;
export const canRedo = (l: CorrectionsLayer): boolean => l.applied < l.changes.length;

export function undo(layer: CorrectionsLayer): CorrectionsLayer {
  return canUndo(layer) ? { ...layer, applied: layer.applied - 1, revision: layer.revision + 1 } : layer;
}

export function redo(layer: CorrectionsLayer): CorrectionsLayer {
  return canRedo(layer) ? { ...layer, applied: layer.applied + 1, revision: layer.revision + 1 } : layer;
}

/** Whether the applied changes leave anything different from the service's transcript. */
export function isCorrected(base: Transcript, current: Transcript): boolean {
  if (base === current) return false;
  if (base.words.length !== current.words.length) return true;
  if (Object.keys(current.names).length > 0) return true;
  if ((current.markers?.length ?? 0) > 0) return true;
  if (outlineChanged(base, current)) return true;
  for (let i = 0; i < base.words.length; i++) {
    const a = base.words[i]!;
    const b = current.words[i]!;
    if (a.text !== b.text || a.speaker !== b.speaker || a.startMs !== b.startMs || a.endMs !== b.endMs) return true;
  }
  return false;
}

/** Whether the chapters or quotes differ from those the recipe gave. */
export function outlineChanged(base: Transcript, current: Transcript): boolean {
  if (base.outline === current.outline) return false;
  const shape = (t: Transcript): string => JSON.stringify([t.outline?.chapters ?? [], t.outline?.quotes ?? []]);
  return shape(base) !== shape(current);
}
