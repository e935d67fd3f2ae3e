// The review view's transcript, its corrections and caption settings.
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings and common/.
import type { CaptionSettings } from '../../common/caption-presets.js';
import { USER_MARKER_COLOURS } from '../../common/marker-colours.js';
import type { ResultFileView, TimelineUsedView } from './queue.js';

// ---- transcripts: review and corrections --------------------------------------------------------
// Note: the channels that carry these (to be added to `Requests`) are
//   'transcript:open'   { jobId }                                  → TranscriptView
//   'transcript:edit'   { jobId, revision, edit: TranscriptEdit }  → TranscriptView (CONFLICT on a stale revision)
//   'transcript:undo' | 'transcript:redo' | 'transcript:revert'  { jobId } → TranscriptView
// and the event 'transcript:changed' → TranscriptChangedView. History search matches transcript words
// too and fills `HistoryEntry.match`.

/** One word of a transcript; times in milliseconds from the media's start. */
export interface TranscriptWordView {
  /** The word without its leading space ("afternoon."). */
  text: string;
  start: number;
  end: number;
  /** Speaker id as the service gave it ("1"); absent without diarization. */
  speaker?: string;
  confidence?: number;
  /** Changed by a correction (text or speaker). */
  corrected: boolean;
}

export interface TranscriptSpeakerView {
  id: string;
  /** "Speaker 1", or the name the editor gave. */
  name: string;
  renamed: boolean;
}

/** A run of words by one speaker: words[first] up to, not including, words[end]. */
export interface TranscriptParagraphView {
  first: number;
  end: number;
  speaker?: string;
  /** Milliseconds: the first word's start, the last word's end. */
  startMs: number;
  endMs: number;
}

export type TranscriptMediaView =
  | {
      kind: 'audio' | 'video';
      /** What the player loads: the app's protocol in Electron, a token-protected path in the browser; range requests. */
      url: string;
      mimeType: string;
    }
  /** The source is gone or unreadable: the transcript still opens, and the player says why. */
  | { kind: 'missing'; message: string };

export interface TranscriptView {
  jobId: string;
  fileName: string;
  media: TranscriptMediaView;
  words: TranscriptWordView[];
  paragraphs: TranscriptParagraphView[];
  speakers: TranscriptSpeakerView[];
  /** Bumped by every change; an edit names the revision it was made on. */
  revision: number;
  /** Differs from the service's transcript as received. */
  corrected: boolean;
  canUndo: boolean;
  canRedo: boolean;
  simulated: boolean;
  /** The results beside the source, as rewritten after the last change. */
  results: ResultFileView[];
  /** The file's place on the editor's timeline, for the running timecode beside the player. */
  timeline?: TimelineClockView;
  /** The editor's own markers, in time order; kept with the corrections and written into the editor formats. */
  markers?: TranscriptMarkerView[];
  /** The recipe's chapters and pull quotes as corrected; absent when no recipe ran for this file. */
  outline?: TranscriptOutlineView;
}

/** Chapters and quotes, each in time order; kept with the corrections and written into every recipe result. */
export interface TranscriptOutlineView {
  /** The first starts at 0; none starts less than 10 s after the one before (it merges into it). */
  chapters: Array<{ id: string; startMs: number; title: string }>;
  quotes: Array<{ id: string; startMs: number; endMs: number; text: string; speaker?: string; speakerName?: string }>;
  /** Chapters and quotes of the recipe's answer that were left out (their words not found), one sentence each. */
  notes: string[];
}

/** The colours a marker can have: the ones Resolve, Premiere and Avid share (Resolve's names). */
export const MARKER_COLOURS = USER_MARKER_COLOURS;
export type MarkerColourView = (typeof MARKER_COLOURS)[number];

export interface TranscriptMarkerView {
  id: string;
  /** Milliseconds from the media's start. */
  atMs: number;
  name: string;
  note: string;
  colour: MarkerColourView;
}

/** A timeline's start and rate as the running timecode counts them (contract/timecode.ts labels it). */
export interface TimelineClockView extends TimelineUsedView {
  /** The frame count the media's first moment is labelled with. */
  startFrame: number;
  /** Frames per second = num / den (24000/1001 at 23.976). */
  num: number;
  den: number;
  dropFrame: boolean;
}

export type TranscriptEdit =
  /** Words [from, to) become the words of `text`, spread over the original span. */
  | { kind: 'replace'; from: number; to: number; text: string }
  /** Renames a speaker for the whole file. */
  | { kind: 'renameSpeaker'; speaker: string; name: string }
  /** Words [from, to) (a paragraph) are given to another speaker. */
  | { kind: 'setSpeaker'; from: number; to: number; speaker: string }
  /** A marker of the editor's own at `atMs` (the playhead); an empty name becomes "Marker N". */
  | { kind: 'addMarker'; atMs: number; name: string; note: string; colour: MarkerColourView }
  /** Renames, re-notes, re-colours or moves (`atMs`: to the playhead) a marker. */
  | { kind: 'updateMarker'; id: string; atMs?: number; name?: string; note?: string; colour?: MarkerColourView }
  | { kind: 'removeMarker'; id: string }
  /** A chapter starting at `atMs` (the playhead); an empty title becomes "Chapter N". */
  | { kind: 'addChapter'; atMs: number; title: string }
  /** Renames or moves (`atMs`: to the playhead) a chapter. */
  | { kind: 'updateChapter'; id: string; atMs?: number; title?: string }
  | { kind: 'removeChapter'; id: string }
  /** A pull quote at `atMs`; empty text takes the words said from there on. */
  | { kind: 'addQuote'; atMs: number; text: string }
  | { kind: 'updateQuote'; id: string; atMs?: number; text?: string }
  | { kind: 'removeQuote'; id: string }
  /** Find-and-replace: several replaces (in order, apart, on the revision named) as one undoable change. */
  | { kind: 'replaceMany'; replacements: Array<{ from: number; to: number; text: string }> };

export interface TranscriptChangedView {
  jobId: string;
  revision: number;
  results: ResultFileView[];
  /** Set when the results beside the source could not be rewritten (the corrections are kept). */
  resultWarning?: string;
}

/** Where a History search found its words inside a transcript. */
export interface TranscriptMatchView {
  /** The matching line, about 120 characters around the hit. */
  text: string;
  /** Where the hit starts in the media, milliseconds. */
  atMs: number;
  /** The words that hold a searched term, as [start, end) character ranges of `text`: highlighted. */
  hits?: Array<[number, number]>;
}

/** The caption presets (a preset's fields, numbers and labels): common/caption-presets.ts. */
export type { CaptionPresetId, CaptionPresetName } from '../../common/caption-presets.js';

/** Caption layout for SRT and VTT, as main keeps it; the presets fix every field but `custom`. */
export type CaptionSettingsView = CaptionSettings;
