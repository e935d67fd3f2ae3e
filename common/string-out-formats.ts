// The formats a string-out is written in, the files each makes (named after the list) and how the
// app names them: one table for `sluice selects export`, the runtime and the export dialog.

export const STRING_OUT_FORMATS = ['otio', 'fcpxml', 'premiere', 'edl', 'script'] as const;
export type StringOutFormat = (typeof STRING_OUT_FORMATS)[number];

/** The files each format writes, after the list's name. */
export const STRING_OUT_ENDINGS: Record<StringOutFormat, readonly [string, ...string[]]> = {
  otio: ['.otio'],
  fcpxml: ['.fcpxml'],
  premiere: ['.premiere.xml'],
  edl: ['.edl'],
  script: ['.script.docx', '.script.txt'],
};

/** What each format is for, in the editor's words. */
export const STRING_OUT_FORMAT_LABELS: Record<StringOutFormat, string> = {
  otio: 'OpenTimelineIO (DaVinci Resolve, and Avid through its adapters)',
  fcpxml: 'FCPXML (Final Cut Pro)',
  premiere: 'Premiere Pro XML',
  edl: 'CMX 3600 EDL (Avid, any NLE)',
  script: 'Paper-edit script (Word and text)',
};

/** Frames of handles the export may add on each side of a bite. */
export const MAX_STRING_OUT_HANDLES = 1000;

/**
 * Gaps and title cards between bites: their lengths (ms) and a title card's text, and the lengths
 * a new one starts with (what the screen and `sluice selects add-gap` / `add-title` offer).
 */
export const SPACER_LIMITS = {
  minMs: 40,
  maxMs: 10 * 60 * 1000,
  text: 200,
  gapMs: 2000,
  titleMs: 3000,
} as const;
