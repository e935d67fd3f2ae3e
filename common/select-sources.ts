// What a select can be picked from besides words chosen in the transcript: a moment (a History
// search hit) widened to its sentence or its speaker's turn, or a marker, chapter or pull quote by
// the id the review shows. Main finds the words (main/engine/selects/select-from.ts); the renderer
// only names the thing.

export const SELECT_WIDENINGS = ['sentence', 'turn'] as const;
export type SelectWidening = (typeof SELECT_WIDENINGS)[number];

export type SelectSource =
  /** Milliseconds from the media's start, widened to the sentence or the turn said there. */
  | { kind: 'moment'; ms: number; widen: SelectWidening }
  | { kind: 'marker'; id: string }
  | { kind: 'chapter'; id: string }
  | { kind: 'quote'; id: string };
