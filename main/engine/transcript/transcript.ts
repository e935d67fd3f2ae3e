// A transcript as the review view edits it: the export's words in time order, each with its
// speaker id as the service gave it, and the names the editor gave to speakers. Built from the
// normalized export (captions/normalize.ts), so the review view, the captions and the search all
// read the same words. Pure.
import { joinWords, type CaptionWord, type NormalizedTranscript } from '../captions/normalize.js';
import type { EditableOutline } from '../recipes/outline-types.js';
import type { UserMarker } from './markers.js';

export interface TranscriptWord {
  /** The word without surrounding whitespace; punctuation kept. */
  text: string;
  startMs: number;
  endMs: number;
  /** Speaker id as the export gave it; absent without diarization. */
  speaker?: string;
  confidence?: number;
  /** The word's language as the service gave it ("en"). */
  language?: string;
  /** False when the word attaches to the previous one (no space before it). */
  spaceBefore: boolean;
  /** Changed by a correction (text or speaker). */
  corrected: boolean;
}

export interface Transcript {
  words: TranscriptWord[];
  /** Speaker ids in order of first appearance in the service's transcript, then any added since. */
  speakers: string[];
  /** Names the editor gave, by speaker id. */
  names: Readonly<Record<string, string>>;
  /** The plain text of an export without timed words (shown, never edited). */
  text: string;
  /** The editor's own markers, in time order (markers.ts); absent: none. */
  markers?: readonly UserMarker[];
  /** The recipe's chapters and quotes as corrected (recipes/outline-edit.ts); absent: no recipe ran. */
  outline?: EditableOutline;
}

export function transcriptOf(n: NormalizedTranscript): Transcript {
  const speakers: string[] = [];
  const seen = new Set<string>();
  const words = n.words.map((w): TranscriptWord => {
    const speaker = w.speakerId ?? w.speaker;
    if (speaker !== undefined && !seen.has(speaker)) {
      seen.add(speaker);
      speakers.push(speaker);
    }
    return {
      text: w.text,
      startMs: w.startMs,
      endMs: w.endMs,
      ...(speaker === undefined ? {} : { speaker }),
      ...(w.confidence === undefined ? {} : { confidence: w.confidence }),
      ...(w.language === undefined ? {} : { language: w.language }),
      spaceBefore: w.spaceBefore,
      corrected: false,
    };
  });
  return { words, speakers, names: {}, text: n.text };
}

/** "Speaker 1", numbered by first appearance, as every caption format labels speakers. */
export function defaultSpeakerName(t: Pick<Transcript, 'speakers'>, id: string): string {
  const i = t.speakers.indexOf(id);
  return `Speaker ${i < 0 ? t.speakers.length + 1 : i + 1}`;
}

export function speakerName(t: Pick<Transcript, 'speakers' | 'names'>, id: string): string {
  return t.names[id] ?? defaultSpeakerName(t, id);
}

/** The words as every caption format reads them: speaker labels are the names shown to people. */
export function captionWordsOf(t: Transcript): CaptionWord[] {
  return t.words.map((w) => ({
    text: w.text,
    startMs: w.startMs,
    endMs: w.endMs,
    spaceBefore: w.spaceBefore,
    ...(w.speaker === undefined ? {} : { speaker: speakerName(t, w.speaker), speakerId: w.speaker }),
    ...(w.confidence === undefined ? {} : { confidence: w.confidence }),
  }));
}

/** The transcript as the caption renderers take it. */
export function normalizedOf(t: Transcript, timeUnit: 'ms' | 's' = 'ms'): NormalizedTranscript {
  const words = captionWordsOf(t);
  const speakers = t.speakers.filter((id) => t.words.some((w) => w.speaker === id)).map((id) => speakerName(t, id));
  return {
    words,
    speakers,
    timeUnit,
    text: words.length > 0 ? joinWords(words) : t.text,
    ...(t.markers && t.markers.length > 0 ? { markers: t.markers } : {}),
    ...(t.outline ? { outline: t.outline } : {}),
  };
}

export interface Paragraph {
  /** words[first] up to, not including, words[end]. */
  first: number;
  end: number;
  speaker?: string;
}

/** Runs of one speaker; without speakers, a silence of `pauseMs` or more starts a new paragraph. */
export function paragraphsOf(words: readonly TranscriptWord[], pauseMs = 2000): Paragraph[] {
  const out: Paragraph[] = [];
  const diarized = words.some((w) => w.speaker !== undefined);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const prev = words[i - 1];
    const last = out[out.length - 1];
    const turn = !prev || (diarized ? w.speaker !== prev.speaker : w.startMs - prev.endMs >= pauseMs);
    if (!last || turn) out.push({ first: i, end: i + 1, ...(w.speaker === undefined ? {} : { speaker: w.speaker }) });
    else last.end = i + 1;
  }
  return out;
}
