// Text formats editors and players load: SubRip, WebVTT, plain text and a segment CSV.
// Pure: cues and words in, file text out. UTF-8 without BOM; LF line ends except CSV (RFC 4180
// asks for CRLF). An empty transcript gives a valid empty file of each format, never an error.
import { labelPrefix, type Cue } from './cues.js';
import { joinWords, type CaptionWord, type NormalizedTranscript } from './normalize.js';

function clock(ms: number, fractionSeparator: ',' | '.' | null): string {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor(total / 60_000) % 60;
  const s = Math.floor(total / 1000) % 60;
  const pad = (v: number, n = 2): string => String(v).padStart(n, '0');
  const base = `${pad(h)}:${pad(m)}:${pad(s)}`;
  return fractionSeparator === null ? base : `${base}${fractionSeparator}${pad(total % 1000, 3)}`;
}

/** `HH:MM:SS,mmm` (SubRip). */
export const srtTime = (ms: number): string => clock(ms, ',');
/** `HH:MM:SS.mmm` (WebVTT). */
export const vttTime = (ms: number): string => clock(ms, '.');

/**
 * SubRip has no escape, and its readers treat `<…>` as a tag (`<i>`, `<font>`) and drop what they
 * do not know, text and all: a corrected `<crème>` or a speaker named `<Zoë>` vanished in pysubs2.
 * So `<` and `>` are written as the single angle quotation marks `‹` and `›`, which every reader shows.
 */
export const escapeSrt = (s: string): string => s.replace(/</g, '‹').replace(/>/g, '›');

/** SubRip. Speaker labels as a plain "Speaker 1: " prefix at each turn: brackets get stripped by players. */
export function renderSrt(cues: readonly Cue[]): string {
  if (cues.length === 0) return '';
  const blocks = cues.map((c, i) => {
    const lines = c.lines.map(escapeSrt);
    if (c.showLabel && c.speaker && lines.length > 0) lines[0] = escapeSrt(labelPrefix(c.speaker)) + lines[0];
    return `${i + 1}\n${srtTime(c.startMs)} --> ${srtTime(c.endMs)}\n${lines.join('\n')}`;
  });
  return `${blocks.join('\n\n')}\n`;
}

/** WebVTT cue text must not carry raw `&`, `<` or `>` (they start entities and tags). */
const escapeVtt = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** WebVTT with a `<v Speaker 1>` voice span on every diarized cue, which players understand. */
export function renderVtt(cues: readonly Cue[]): string {
  const blocks = cues.map((c) => {
    const lines = c.lines.map(escapeVtt);
    if (c.speaker && lines.length > 0) lines[0] = `<v ${escapeVtt(c.speaker)}>${lines[0]}`;
    return `${vttTime(c.startMs)} --> ${vttTime(c.endMs)}\n${lines.join('\n')}`;
  });
  return ['WEBVTT', ...blocks].join('\n\n') + '\n';
}

export interface TxtOptions {
  /** `[00:01:23]` at the start of each paragraph. */
  timestamps: boolean;
  /** The stamp for a moment (the source timecode, `11:42:15:02`); absent: the clock from the media's start. */
  stamp?: (ms: number) => string;
  /** Without speakers, a silence this long starts a new paragraph (Buzz uses 2 s too). */
  paragraphPauseMs: number;
}

export const DEFAULT_TXT_OPTIONS: TxtOptions = { timestamps: false, paragraphPauseMs: 2000 };

/** Paragraphs split at speaker turns (or long pauses when undiarized), blank line between. */
export function paragraphs(words: readonly CaptionWord[], pauseMs: number): CaptionWord[][] {
  const out: CaptionWord[][] = [];
  const diarized = words.some((w) => w.speaker !== undefined);
  let prev: CaptionWord | undefined;
  for (const w of words) {
    const last = out[out.length - 1];
    const turn = diarized ? w.speaker !== prev?.speaker : prev !== undefined && w.startMs - prev.endMs >= pauseMs;
    if (!last || turn) out.push([w]);
    else last.push(w);
    prev = w;
  }
  return out;
}

export function renderTxt(t: NormalizedTranscript, options: Partial<TxtOptions> = {}): string {
  const o = { ...DEFAULT_TXT_OPTIONS, ...options };
  if (t.words.length === 0) return t.text === '' ? '' : `${t.text}\n`;
  const blocks = paragraphs(t.words, o.paragraphPauseMs).map((p) => {
    const first = p[0]!;
    const stamp = o.timestamps ? `[${o.stamp ? o.stamp(first.startMs) : clock(first.startMs, null)}] ` : '';
    const label = first.speaker ? labelPrefix(first.speaker) : '';
    return `${stamp}${label}${joinWords(p)}`;
  });
  return `${blocks.join('\n\n')}\n`;
}

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. Text a spreadsheet
 * would run as a formula (starting with = + - @, a tab or a carriage return) gets a leading `'`
 * and quotes: a transcript or a service-given name is data, never a formula. Numbers stay numbers.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  const formula = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text);
  if (formula) text = `'${text}`;
  return formula || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * One row per cue: `start,end,speaker,text`, times in seconds with 3 decimals (exact for
 * milliseconds, and what spreadsheets sort and sum without a time format); speaker empty when
 * undiarized; the cue's words as spoken, on one line.
 */
export function renderCsv(cues: readonly Cue[]): string {
  const rows = cues.map((c) =>
    [(c.startMs / 1000).toFixed(3), (c.endMs / 1000).toFixed(3), c.speaker ?? '', joinWords(c.words)]
      .map(csvField)
      .join(','),
  );
  return ['start,end,speaker,text', ...rows].join('\r\n') + '\r\n';
}
