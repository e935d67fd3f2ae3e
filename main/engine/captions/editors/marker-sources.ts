// Where the editor formats' markers come from, as a folder chooses: one per speaker turn or
// paragraph, the editor's own (made in the review), and a recipe's chapters and pull quotes. Pure.
import { z } from 'zod';

export const MARKER_SOURCES = ['paragraphs', 'editor', 'chapters', 'quotes'] as const;
export type MarkerSource = (typeof MARKER_SOURCES)[number];

/** Paragraphs and the editor's own: chapters and quotes only when a folder asks (they repeat the paragraphs' places). */
export const DEFAULT_MARKER_SOURCES: readonly MarkerSource[] = ['paragraphs', 'editor'];

export const MARKER_SOURCES_SETTING = z.array(z.enum(MARKER_SOURCES)).max(MARKER_SOURCES.length);
