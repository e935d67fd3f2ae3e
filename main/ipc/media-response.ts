// A job's source file served to the review view's player, for both transports (the web bridge's
// media route and Electron's app protocol): streamed from disk, never read whole, with HTTP range
// requests (RFC 9110 §14) so the player can seek in a 2 GB recording. Only the source of a known
// completed job is ever served; the caller never names a path.
import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Services } from '../runtime/services.js';
import { canReview } from '../engine/eligibility.js';
import { mediaKindOf } from '../engine/transcript/media-kind.js';
import { currentPath } from '../engine/source-path.js';

/** Where the player loads a job's source, relative to the page (both transports serve it there). */
export const MEDIA_PREFIX = '/media/';

export interface MediaResponse {
  status: 200 | 206 | 404 | 416;
  headers: Record<string, string>;
  /** Absent for HEAD and refusals. */
  body?: ReadStream;
}

type Range = { start: number; end: number } | 'unsatisfiable' | undefined;

/** One byte range of `size` (several ranges are answered with the whole file, as RFC 9110 allows). */
export function parseRange(header: string | undefined, size: number): Range {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return undefined;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return undefined;
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start >= size || end < start)
    return 'unsatisfiable';
  return { start, end };
}

export async function mediaResponse(
  queue: Pick<Services['queue'], 'job'>,
  jobId: string,
  method: string,
  rangeHeader: string | undefined,
): Promise<MediaResponse> {
  const job = queue.job(jobId);
  const notFound: MediaResponse = { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
  if (!job || !canReview(job)) return notFound;
  const file = currentPath(job);
  const st = await stat(file).catch(() => null);
  if (!st?.isFile()) return notFound;
  const size = st.size;
  const base = {
    'Content-Type': mediaKindOf(file).mimeType,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'no-store',
  };
  const range = parseRange(rangeHeader, size);
  if (range === 'unsatisfiable') return { status: 416, headers: { ...base, 'Content-Range': `bytes */${size}` } };
  const head = method === 'HEAD';
  if (!range) {
    return {
      status: 200,
      headers: { ...base, 'Content-Length': String(size) },
      ...(head || size === 0 ? {} : { body: createReadStream(file) }),
    };
  }
  return {
    status: 206,
    headers: {
      ...base,
      'Content-Length': String(range.end - range.start + 1),
      'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
    },
    ...(head ? {} : { body: createReadStream(file, { start: range.start, end: range.end }) }),
  };
}
