// Whether a file added by hand is audio or video, decided before anything is uploaded: by its
// extension, then by its content (text, a container that is not whole, one the media probe cannot
// read). A watch folder decides by its patterns instead; this is for files a person points at, so
// that a PDF or a half-copied clip is refused at once with its reason rather than failing at the
// service.
import { open, stat, type FileHandle } from 'node:fs/promises';
import type { JobRecord } from '../../engine/job.js';
import path from 'node:path';
import { ineligible, type Ineligible } from '../../../common/media-files.js';
import { containerCheckOf, riffOverrunOf } from '../../media/container-layout.js';
import { readMedia } from '../../media/probe.js';
import { pcmWavLengthOf } from '../../media/wav-length.js';
import { currentPath } from '../../engine/source-path.js';

const HEAD_BYTES = 4096;

/** The reason a file added by hand is not taken, in a sentence naming it; undefined when it is media. */
export async function mediaRefusal(file: string, size: number): Promise<string | undefined> {
  const checked = await checkHandMedia(file, size);
  return 'refusal' in checked ? checked.refusal : undefined;
}

/**
 * `mediaRefusal`, and for media the length its probe read (null when the container does not say):
 * the job keeps it, so its stream's first look and stuck deadline follow the media's length.
 */
export async function checkHandMedia(
  file: string,
  size: number,
): Promise<{ refusal: string } | { durationMs: number | null }> {
  const refusal = (reason: string): { refusal: string } => ({ refusal: reason });
  const name = path.basename(file);
  const refused = ineligible({ name, size });
  if (refused) return refusal(ineligibleWords(name, refused));
  const ext = path.extname(name).slice(1).toLowerCase();
  // One open for the head, the container and a WAV's length; a file that cannot be opened is
  // left to the probe, whose error names why.
  const fh = await open(file, 'r').catch(() => undefined);
  if (fh) {
    try {
      const head = await readHead(fh).catch(() => undefined);
      if (head && looksLikeText(head)) {
        return refusal(`${name} holds text, not audio or video, although it is named .${ext}; it was not added.`);
      }
      // The open file's own size: the caller's stat may be a moment older than a copy still landing.
      const opened = (await fh.stat().catch(() => undefined))?.size ?? size;
      const { wholeness } = await containerCheckOf(fh, opened, file);
      if (!wholeness.whole) {
        return refusal(`${name} is cut short (${wholeness.reason}; was the copy interrupted?); it was not added.`);
      }
      const overrun = await riffOverrunOf(fh, opened);
      if (overrun) return refusal(`${name} is longer than its header says (${overrun}); it was not added.`);
      // A PCM WAV says its length in its header: read there, MediaInfo's pass is not needed to take it.
      const pcm = await pcmWavLengthOf(fh, opened).catch(() => undefined);
      if (pcm !== undefined && pcm > 0) return { durationMs: pcm };
    } finally {
      await fh.close().catch(() => undefined);
    }
  }
  let reading;
  try {
    reading = await readMedia(file);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return refusal(`${name} cannot be read (${why}); it was not added.`);
  }
  if (reading.container === null) {
    return refusal(
      `${name} cannot be read as audio or video: its content is in no format Sluice recognises, although it is named .${ext}; it was not added.`,
    );
  }
  if (reading.facts.durationMs === null && !reading.facts.hasAudio && reading.facts.videoRate === null) {
    return refusal(`${name} cannot be read as audio or video: it looks damaged or cut short; it was not added.`);
  }
  return { durationMs: reading.facts.durationMs };
}

/** A file refused by its name or size, in a sentence naming it. */
export function ineligibleWords(name: string, r: Ineligible): string {
  if (r.kind === 'empty') return `${name} is empty (0 bytes); it was not added.`;
  return r.ext
    ? `${name} is not an audio or video file (.${r.ext}); it was not added.`
    : `${name} has no audio or video extension (such as .wav or .mp4); it was not added.`;
}

async function readHead(h: FileHandle): Promise<Buffer> {
  const buf = Buffer.alloc(HEAD_BYTES);
  const { bytesRead } = await h.read(buf, 0, HEAD_BYTES, 0);
  return buf.subarray(0, bytesRead);
}

/** Valid UTF-8 with no NUL and no control bytes but whitespace: every media container fails this. */
function looksLikeText(head: Buffer): boolean {
  try {
    // `stream`: the last bytes read may be the start of a character cut by the read's end.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    // eslint-disable-next-line no-control-regex -- control bytes are what tells binary from text
    return !/[\u0000-\u0008\u000e-\u001f]/.test(text);
  } catch {
    return false;
  }
}

/**
 * Why retrying a failed job could never succeed, or undefined when it might: its source is gone,
 * empty, or not media. A retry of such a file only bills nothing and fails again.
 */
export async function hopelessRetry(job: JobRecord): Promise<string | undefined> {
  const file = currentPath(job);
  const name = path.basename(file);
  const st = await stat(file).catch(() => undefined);
  if (!st || !st.isFile()) return `${name} is no longer there (deleted or moved).`;
  const refusal = await mediaRefusal(file, st.size);
  return refusal?.replace(/; it was not added\.$/, '.');
}
