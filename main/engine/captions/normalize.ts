// The export (contract §6.3) → a clean, time-ordered word list that every caption format reads.
// Pure: no I/O. Tolerant on purpose, because caption tools break on exactly these inputs
// (research/anchors-product.md §3.3): an empty transcript, speakers not numbered from 0, times
// in seconds instead of milliseconds, unsorted or overlapping words.
//
// Note (time unit rule): the contract says integer milliseconds. A file is read as SECONDS when
//  (a) the ms reading would mean more than 50 words per second (last end < 20 × word count), or
//  (b) the media length D is known and the seconds reading fits it (last end ≤ D/1000 × 1.1 + 1),
//      i.e. the ms reading would crowd all speech into the first thousandth of the media, or
//  (c) some time is not an integer (int64 ms never are) — unless D is known and the seconds
//      reading would end after the media.
// Otherwise milliseconds. A real ms export never meets (a) or (b): a spoken word lasts ≥ 100 ms.
import type { ExportResult, Utterance, Word } from '../../service/types.js';
import type { EditableOutline } from '../recipes/outline-types.js';
import type { UserMarker } from '../transcript/markers.js';
import { applyGlossary, carrySpellings, respelledCount, withPlainDetails } from './respell.js';

export interface CaptionWord {
  /** The word without surrounding whitespace; punctuation kept. */
  text: string;
  startMs: number;
  endMs: number;
  /** Display label ("Speaker 1"), numbered by first appearance; absent when not diarized. */
  speaker?: string;
  /** False when the word attaches to the previous one (no leading space in the export). */
  spaceBefore: boolean;
  /** The speaker id as the export gave it ("SPEAKER_0"); `speaker` is its display label. */
  speakerId?: string;
  confidence?: number;
  /** The word's language as the export gave it; kept so a corrected export still carries it. */
  language?: string;
}

export interface NormalizedTranscript {
  words: CaptionWord[];
  /** Display labels in order of first appearance. */
  speakers: string[];
  /** Unit the file's times were read in (converted to ms either way). */
  timeUnit: 'ms' | 's';
  /** transcription.text trimmed; the only content when words are missing. */
  text: string;
  /** The editor's own markers (review), carried to the editor formats; absent: none. */
  markers?: readonly UserMarker[];
  /** The recipe's chapters and quotes as the editor corrected them; absent: as aligned from the export. */
  outline?: EditableOutline;
  /**
   * Words spelt otherwise than the plain transcription spells them, from the enhanced
   * transcription and the glossary (respell.ts); absent when the export has no enhanced one.
   */
  respelled?: number;
}

export interface NormalizeOptions {
  /** Media length, when known; sharpens the seconds/milliseconds decision. */
  mediaDurationMs?: number;
  /** The glossary the job sent (`etVocabulary`): its terms' spelling wins (respell.ts). */
  glossary?: readonly string[];
}

/** Parses the saved export text; anything that is not a JSON object reads as an empty result. */
export function parseExport(text: string): ExportResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  return isRecord(value) ? (value as ExportResult) : {};
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const records = (c: unknown): Word[] => (Array.isArray(c) ? (c.filter(isRecord) as unknown as Word[]) : []);
const timedWords = (c: unknown): Word[] =>
  records(c).filter((w) => typeof w.word === 'string' && finite(w.start) !== undefined);

/** The plain words: the transcription's, else its turns'; the catalogue variant (`metadata`) and absent or null sections accepted. */
function plainWords(r: ExportResult): Word[] {
  const listed = records(r.transcription?.words);
  if (listed.length > 0) return listed;
  return records(
    Array.isArray(r.utterances)
      ? r.utterances.flatMap((u) => (isRecord(u) && Array.isArray(u.words) ? u.words : []))
      : [],
  );
}

/**
 * The words every format reads, and how many of them the enhanced transcription and the glossary
 * respelt (undefined without an enhanced transcription). See respell.ts.
 */
function rawWords(r: ExportResult, glossary: readonly string[]): { words: Word[]; respelled?: number } {
  const plain = plainWords(r);
  const enhanced = isRecord(r.enhancedTranscription) ? r.enhancedTranscription.transcription : undefined;
  if (!isRecord(enhanced)) return { words: plain };
  const timed = timedWords(enhanced.words);
  let words: Word[];
  if (timed.length > 0) words = plain.length > 0 ? withPlainDetails(timed, plain) : timed;
  else if (typeof enhanced.text === 'string' && enhanced.text.trim() !== '' && plain.length > 0)
    words = carrySpellings(plain, enhanced.text);
  else return { words: plain };
  words = applyGlossary(words, glossary);
  return { words, respelled: respelledCount(plain, words) };
}

function rawSpeaker(w: Word): string | undefined {
  const fromList = Array.isArray(w.speakers) ? w.speakers.find((s) => typeof s === 'string' && s !== '') : undefined;
  if (fromList) return fromList;
  const m = w.metadata;
  if (!isRecord(m)) return undefined;
  for (const key of ['speaker', 'speakerId', 'speaker_id', 'speakers']) {
    const v = m[key];
    if (typeof v === 'string' && v.trim() !== '') return v.split(',')[0]?.trim();
  }
  return undefined;
}

/** A word without its own speaker takes the speaker of the utterance it falls in. */
function utteranceSpeaker(utterances: readonly Utterance[], t: number): string | undefined {
  for (const u of utterances) {
    if (!isRecord(u) || typeof u.start !== 'number' || typeof u.end !== 'number') continue;
    if (t >= u.start && t <= u.end) return Array.isArray(u.speakerIds) ? u.speakerIds[0] : undefined;
  }
  return undefined;
}

export function detectTimeUnit(
  times: ReadonlyArray<{ start: number; end: number }>,
  mediaDurationMs?: number,
): 'ms' | 's' {
  if (times.length === 0) return 'ms';
  // A loop, not Math.max(...spread): long transcripts would overflow the argument stack.
  const lastEnd = times.reduce((m, t) => Math.max(m, t.start, t.end), -Infinity);
  if (lastEnd <= 0) return 'ms';
  const known = mediaDurationMs !== undefined && mediaDurationMs > 0;
  const secondsFit = known && lastEnd <= (mediaDurationMs / 1000) * 1.1 + 1;
  if (lastEnd < 20 * times.length) return 's';
  if (secondsFit) return 's';
  const fractional = times.some((t) => !Number.isInteger(t.start) || !Number.isInteger(t.end));
  if (fractional && (!known || secondsFit)) return 's';
  return 'ms';
}

const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function normalizeExport(input: ExportResult | string, options: NormalizeOptions = {}): NormalizedTranscript {
  const result = typeof input === 'string' ? parseExport(input) : input;
  const text = typeof result.transcription?.text === 'string' ? result.transcription.text.trim() : '';
  const utterances = Array.isArray(result.utterances) ? result.utterances : [];

  const timed: Array<{ raw: Word; start: number; end: number; index: number }> = [];
  const chosen = rawWords(result, options.glossary ?? []);
  chosen.words.forEach((raw, index) => {
    const start = finite(raw.start);
    if (start === undefined || typeof raw.word !== 'string') return;
    timed.push({ raw, start, end: finite(raw.end) ?? start, index });
  });
  const timeUnit = detectTimeUnit(timed, options.mediaDurationMs);
  const scale = timeUnit === 's' ? 1000 : 1;
  // The variant without leading spaces (catalogue words are bare tokens) is read as space-separated.
  const spacedExport = timed.slice(1).some((t) => /^\s/.test(t.raw.word));

  const ordered = timed
    .map((t) => ({
      ...t,
      start: Math.max(0, Math.round(t.start * scale)),
      end: Math.max(0, Math.round(t.end * scale)),
    }))
    .sort((a, b) => a.start - b.start || a.end - b.end || a.index - b.index);

  const labels = new Map<string, string>();
  const words: CaptionWord[] = [];
  for (const t of ordered) {
    const clean = t.raw.word.replace(/\s+/g, ' ').trim();
    if (clean === '') continue;
    const id = rawSpeaker(t.raw) ?? (utterances.length > 0 ? utteranceSpeaker(utterances, t.start / scale) : undefined);
    let speaker: string | undefined;
    if (id !== undefined) {
      speaker = labels.get(id);
      if (speaker === undefined) {
        speaker = `Speaker ${labels.size + 1}`;
        labels.set(id, speaker);
      }
    }
    const confidence = finite(t.raw.confidence);
    const language = typeof t.raw.language === 'string' && t.raw.language !== '' ? t.raw.language : undefined;
    words.push({
      text: clean,
      startMs: t.start,
      endMs: Math.max(t.start, t.end),
      ...(speaker === undefined ? {} : { speaker, speakerId: id }),
      ...(confidence === undefined ? {} : { confidence }),
      ...(language === undefined ? {} : { language }),
      spaceBefore: !spacedExport || /^\s/.test(t.raw.word) || words.length === 0,
    });
  }
  // Overlaps: a word ends no later than the next one starts (sorted, so starts never go back).
  for (let i = 0; i + 1 < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1]!;
    if (w.endMs > next.startMs) w.endMs = Math.max(w.startMs, next.startMs);
  }
  return {
    words,
    speakers: [...labels.values()],
    timeUnit,
    text,
    ...(chosen.respelled === undefined ? {} : { respelled: chosen.respelled }),
  };
}

/** Words joined as spoken: a space only where the export had one. */
export function joinWords(words: ReadonlyArray<Pick<CaptionWord, 'text' | 'spaceBefore'>>): string {
  return words.map((w, i) => (i > 0 && w.spaceBefore ? ` ${w.text}` : w.text)).join('');
}

/** The language the words carry most often, when the export says. */
export function spokenLanguage(text: string): string | undefined {
  const counts = new Map<string, number>();
  for (const w of parseExport(text).transcription?.words ?? []) {
    if (typeof w?.language === 'string' && w.language !== '') counts.set(w.language, (counts.get(w.language) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}
