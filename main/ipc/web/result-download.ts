// One result file of a job, sent to the browser as an attachment: the results of files dropped
// into the browser live in the state folder's inbox on the machine running `sluice serve`, and this
// is how they reach the person using it. The file is found by job id and format in the job's own
// record (never a path from the request), and only while it is still there.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Result } from '../../../preload/contract.js';
import type { Services } from '../../runtime/services.js';

const TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

/** `attachment` with an ASCII stand-in for old clients and the exact name as RFC 5987 `filename*`. */
export function contentDisposition(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

function fail(
  reply: FastifyReply,
  status: number,
  code: 'NOT_FOUND' | 'INVALID_PARAMS' | 'FILESYSTEM',
  message: string,
) {
  return reply.code(status).send({ ok: false, error: { code, message, retryable: false } } satisfies Result<never>);
}

export async function sendResult(
  rt: Pick<Services, 'queue'>,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const q = (req.query ?? {}) as Record<string, unknown>;
  if (typeof q.jobId !== 'string' || typeof q.format !== 'string') {
    return fail(reply, 400, 'INVALID_PARAMS', 'A download needs ?jobId= and ?format=.');
  }
  const result = rt.queue.job(q.jobId)?.results.find((r) => r.format === q.format);
  if (!result) return fail(reply, 404, 'NOT_FOUND', `This job has no ${q.format} result.`);
  const st = await stat(result.path).catch(() => undefined);
  if (!st?.isFile()) {
    return fail(reply, 404, 'FILESYSTEM', `${path.basename(result.path)} is no longer there (moved or deleted).`);
  }
  return reply
    .header('Content-Type', TYPES[result.format] ?? 'application/octet-stream')
    .header('Content-Length', String(st.size))
    .header('Content-Disposition', contentDisposition(path.basename(result.path)))
    .send(createReadStream(result.path));
}
