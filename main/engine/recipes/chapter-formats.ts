// The chapter files: Podcasting 2.0 JSON chapters, YouTube description lines and an ffmpeg
// metadata file. Pure: an outline in, file text out; null when the outline has nothing the format
// can hold (the writer then writes no file).
import type { TimedChapter } from './align.js';

/** https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/examples/chapters/jsonChapters.md */
export const JSON_CHAPTERS_VERSION = '1.2.0';

/** A chapter title on one line, without control characters. */
const oneLine = (s: string): string =>
  s
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function renderJsonChapters(chapters: readonly TimedChapter[]): string | null {
  if (chapters.length === 0) return null;
  const doc = {
    version: JSON_CHAPTERS_VERSION,
    chapters: [...chapters]
      .sort((a, b) => a.startMs - b.startMs)
      .map((c) => ({ startTime: c.startMs / 1000, title: oneLine(c.title) })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** `0:00`, `12:34`, `1:02:03`: the form YouTube links in a description. Whole seconds, rounded down. */
export function youtubeTime(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor(total / 60) % 60;
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** YouTube's own rules for chapters in a description. */
export const YOUTUBE_MIN_CHAPTERS = 3;
export const YOUTUBE_MIN_GAP_MS = 10_000;

/** Why YouTube would not take these chapters, or undefined when it would. */
export function youtubeProblem(chapters: readonly TimedChapter[]): string | undefined {
  if (chapters.length < YOUTUBE_MIN_CHAPTERS) {
    return `YouTube chapters were not written: YouTube needs at least ${YOUTUBE_MIN_CHAPTERS} chapters and this recording has ${chapters.length}.`;
  }
  if (chapters[0]!.startMs !== 0) return 'YouTube chapters were not written: the first chapter must start at 0:00.';
  for (let i = 1; i < chapters.length; i++) {
    const gap = Math.floor(chapters[i]!.startMs / 1000) - Math.floor(chapters[i - 1]!.startMs / 1000);
    if (gap < YOUTUBE_MIN_GAP_MS / 1000) {
      return 'YouTube chapters were not written: YouTube needs chapters at least 10 seconds apart.';
    }
  }
  return undefined;
}

export function renderYoutube(chapters: readonly TimedChapter[]): string | null {
  if (youtubeProblem(chapters)) return null;
  return chapters.map((c) => `${youtubeTime(c.startMs)} ${oneLine(c.title)}`).join('\n') + '\n';
}

/** ffmpeg's metadata escaping: `=`, `;`, `#`, `\` and line breaks get a backslash. */
const escapeMeta = (s: string): string => oneLine(s).replace(/[=;#\\]/g, '\\$&');

/**
 * An ffmpeg metadata file (https://ffmpeg.org/ffmpeg-formats.html#Metadata-2) holding the chapters,
 * in milliseconds; each ends where the next starts, the last at `endMs` (the media's length).
 */
export function renderFfmetadata(chapters: readonly TimedChapter[], endMs: number, title?: string): string | null {
  if (chapters.length === 0) return null;
  const sorted = [...chapters].sort((a, b) => a.startMs - b.startMs);
  const lines = [';FFMETADATA1'];
  if (title) lines.push(`title=${escapeMeta(title)}`);
  sorted.forEach((c, i) => {
    const end = i + 1 < sorted.length ? sorted[i + 1]!.startMs : Math.max(endMs, c.startMs + 1);
    lines.push('', '[CHAPTER]', 'TIMEBASE=1/1000', `START=${Math.round(c.startMs)}`, `END=${Math.round(end)}`);
    lines.push(`title=${escapeMeta(c.title)}`);
  });
  return `${lines.join('\n')}\n`;
}
