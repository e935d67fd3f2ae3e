// What every editor format (FCPXML, iTT, TTML, EDL, xmeml, SubCap) is written from: the file's
// place on the timeline, its captions snapped to frames, and its markers. Built once from the
// transcript (corrected or as exported) with the same cue builder as the SRT, so a caption reads
// the same in every format. Pure. Frames here count from the media's first moment; writers add
// `startFrame` where a format wants timeline timecode.
import type { MediaFacts } from '../../media-facts.js';
import { msToFrameCeil, msToFrameFloor, snapSpans } from '../../../../common/frames.js';
import {
  clipTimeline,
  DEFAULT_TIMELINE,
  timelineRate,
  type Timeline,
  type TimelineSettings,
} from '../../timecode/timeline.js';
import { buildCues, labelPrefix, type CueOptions } from '../cues.js';
import { DEFAULT_TXT_OPTIONS, paragraphs } from '../formats.js';
import { joinWords, type NormalizedTranscript } from '../normalize.js';
import { mediaKindOf } from '../../transcript/media-kind.js';
import { foldText } from '../../transcript/search-text.js';
import type { UserMarkerColour } from '../../transcript/markers.js';
import { DEFAULT_MARKER_SOURCES, type MarkerSource } from './marker-sources.js';

/** Resolve's marker colours seen in its own EDL exports; one per speaker, in turn. */
export const MARKER_COLOURS = ['Blue', 'Green', 'Red', 'Purple', 'Yellow'] as const;
export type MarkerColour = (typeof MARKER_COLOURS)[number] | UserMarkerColour;

export interface EditorCaption {
  /** First frame shown and first frame no longer shown, from the media's start. */
  start: number;
  end: number;
  /** Lines as shown, the speaker's label before the first line of a turn (as in the SRT). */
  lines: string[];
}

export interface EditorMarker {
  /** A speaker turn or paragraph, the editor's own, a chapter (FCPXML writes a chapter marker) or a pull quote. */
  kind: 'paragraph' | 'editor' | 'chapter' | 'quote';
  frame: number;
  name: string;
  note: string;
  colour: MarkerColour;
}

export interface EditorDocument {
  /** The source's file name with its extension, and without it (the clip's name in the NLE). */
  fileName: string;
  title: string;
  /** Absolute path of the source, for the formats that link the media. */
  sourcePath: string;
  /** BCP 47 language of the captions (`en`, `pt-BR`). */
  language: string;
  timeline: Timeline;
  /** Media length in frames (at least up to the last caption or marker). */
  durationFrames: number;
  hasVideo: boolean;
  hasAudio: boolean;
  /** The picture's size, when the media probe read it. */
  frameSize?: { width: number; height: number };
  captions: EditorCaption[];
  markers: EditorMarker[];
}

export interface EditorInput {
  sourcePath: string;
  transcript: NormalizedTranscript;
  cues?: Partial<CueOptions>;
  /** What the media says about itself; null or absent: 00:00:00:00 on the default rate. */
  mediaFacts?: MediaFacts | null;
  timeline?: TimelineSettings;
  mediaDurationMs?: number;
  language?: string;
  /** Which markers go out; absent: paragraphs and the editor's own. */
  markerSources?: readonly MarkerSource[];
  /** The chapter recipe's chapters, when it ran. */
  chapters?: ReadonlyArray<{ title: string; startMs: number }>;
  /** A recipe's pull quotes, when it ran. */
  quotes?: ReadonlyArray<{ text: string; startMs: number; speaker?: string }>;
}

/** A pull quote's colour: none of the speakers' (MARKER_COLOURS) nor the chapters' red. */
export const QUOTE_COLOUR: MarkerColour = 'Cyan';

/** A marker's note: the turn's first words, cut at a word near 80 characters. */
const NOTE_CHARS = 80;

function firstWords(text: string): string {
  if (Array.from(text).length <= NOTE_CHARS) return text;
  const cut = Array.from(text).slice(0, NOTE_CHARS).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > NOTE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const BCP47 = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i;

/** The captions' language as the NLE wants it (`en`, `pt-BR`); `und` when nothing says. */
export function languageTag(candidates: ReadonlyArray<string | undefined>): string {
  for (const c of candidates) {
    const t = c?.trim().replace(/_/g, '-');
    if (!t || !BCP47.test(t)) continue;
    const [lang, ...rest] = t.split('-');
    return [lang!.toLowerCase(), ...rest.map((p) => (p.length === 2 ? p.toUpperCase() : p))].join('-');
  }
  return 'und';
}

/** One marker per speaker turn (or paragraph, undiarized). */
function paragraphMarkers(t: NormalizedTranscript, rateFrames: (ms: number) => number): EditorMarker[] {
  const colours = new Map<string, MarkerColour>();
  const out: EditorMarker[] = [];
  paragraphs(t.words, DEFAULT_TXT_OPTIONS.paragraphPauseMs).forEach((p, i) => {
    const first = p[0]!;
    const speaker = first.speaker;
    let colour = speaker ? colours.get(speaker) : MARKER_COLOURS[0];
    if (!colour) {
      colour = MARKER_COLOURS[colours.size % MARKER_COLOURS.length]!;
      colours.set(speaker!, colour);
    }
    out.push({
      kind: 'paragraph',
      frame: rateFrames(first.startMs),
      name: speaker ?? `Paragraph ${i + 1}`,
      note: firstWords(joinWords(p)),
      colour,
    });
  });
  return out;
}

/** The chosen markers in time order, each at its word's frame. */
function markersOf(input: EditorInput, rateFrames: (ms: number) => number): EditorMarker[] {
  const sources = new Set(input.markerSources ?? DEFAULT_MARKER_SOURCES);
  const all: EditorMarker[] = [];
  if (sources.has('chapters')) {
    for (const c of input.chapters ?? []) {
      all.push({ kind: 'chapter', frame: rateFrames(c.startMs), name: c.title, note: '', colour: 'Red' });
    }
  }
  if (sources.has('quotes')) {
    // The quote itself is the name, since an EDL carries nothing else; the note says who said it.
    // A quote the recipe gave twice, landing on the same words, is one marker.
    const seen = new Set<string>();
    for (const q of input.quotes ?? []) {
      const text = q.text.replace(/^["“”]+|["“”]+$/g, '').trim();
      const frame = rateFrames(q.startMs);
      const key = `${frame}\n${foldText(text).replace(/\s+/g, ' ')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      all.push({ kind: 'quote', frame, name: `“${firstWords(text)}”`, note: q.speaker ?? '', colour: QUOTE_COLOUR });
    }
  }
  if (sources.has('editor')) {
    for (const m of input.transcript.markers ?? []) {
      all.push({ kind: 'editor', frame: rateFrames(m.atMs), name: m.name, note: m.note, colour: m.colour });
    }
  }
  if (sources.has('paragraphs')) all.push(...paragraphMarkers(input.transcript, rateFrames));
  // Stable: on one frame a chapter comes first, then a quote, the editor's own, the paragraph's.
  // Each stays on its own word's frame: Final Cut and Premiere keep several markers on one frame;
  // Resolve keeps one, so the EDL joins them there (edl.ts).
  return all.sort((a, b) => a.frame - b.frame);
}

export function editorDocument(input: EditorInput): EditorDocument {
  const facts = input.mediaFacts ?? null;
  const settings = input.timeline ?? DEFAULT_TIMELINE;
  const rate = timelineRate(facts, settings.defaultRate);
  const cues = buildCues(input.transcript.words, input.cues);
  const spans = snapSpans(cues, rate);
  const captions = cues.map((c, i) => {
    const lines = [...c.lines];
    if (c.showLabel && c.speaker && lines.length > 0) lines[0] = labelPrefix(c.speaker) + lines[0];
    return { ...spans[i]!, lines };
  });
  const markers = markersOf(input, (ms) => msToFrameFloor(ms, rate));
  const durationMs = facts?.durationMs ?? input.mediaDurationMs;
  const durationFrames = Math.max(
    durationMs ? msToFrameCeil(durationMs, rate) : 0,
    captions[captions.length - 1]?.end ?? 0,
    (markers[markers.length - 1]?.frame ?? -1) + 1,
    1,
  );
  // Placed by the length every format takes (a clip that would run past midnight starts earlier: midnight.ts).
  const words = input.transcript.words;
  const timeline = clipTimeline(facts, settings, words[words.length - 1]?.endMs ?? 0, input.mediaDurationMs);
  const fileName = input.sourcePath.split(/[/\\]/).pop() ?? input.sourcePath;
  const dot = fileName.lastIndexOf('.');
  return {
    fileName,
    title: dot > 0 ? fileName.slice(0, dot) : fileName,
    sourcePath: input.sourcePath,
    language: languageTag([input.language]),
    timeline,
    durationFrames,
    // Without a probe's word, the extension says (a .mov has picture, a .wav has none).
    hasVideo: facts ? facts.videoRate !== null : mediaKindOf(fileName).kind === 'video',
    hasAudio: facts ? facts.hasAudio : true,
    ...(facts?.frameSize && facts.videoRate ? { frameSize: { ...facts.frameSize } } : {}),
    captions,
    markers,
  };
}
