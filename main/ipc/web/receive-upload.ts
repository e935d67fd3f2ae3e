// Files dropped into a browser have no path on disk: the web bridge receives their bytes
// (multipart/form-data, or one raw body with ?name=), streams each to its own folder in the state
// dir's inbox (`<state>/inbox/<uuid>/<name>`), and queues them as manual jobs; their results are
// written beside them there. Nothing is buffered in memory.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import type { AddOutcomeView, Result } from '../../../preload/contract.js';
import type { Services } from '../../runtime/services.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../adapters/store/private-files.js';
import { toBridgeError } from '../errors.js';
import { dispatch, type Handlers } from '../handlers.js';

const MAX_FILES = 1000;
/** File systems allow 255 bytes (ext4, APFS) or 255 UTF-16 units (NTFS) per name; some room kept. */
const MAX_NAME_BYTES = 240;

/** Cuts a name too long for the file system on a whole character, keeping its extension. */
function fitName(name: string): string {
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const ext = path.extname(name);
  const keptExt = Buffer.byteLength(ext) <= 32 ? ext : '';
  let out = '';
  let bytes = Buffer.byteLength(keptExt);
  const stem = name.slice(0, name.length - keptExt.length);
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(stem)) {
    bytes += Buffer.byteLength(segment);
    if (bytes > MAX_NAME_BYTES) break;
    out += segment;
  }
  return out.trim() + keptExt;
}

/** A file name safe on every OS, keeping the extension (it decides how the file is read). */
function safeFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/'));
  const clean = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f<>:"/\\|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  return fitName(clean) || 'upload.bin';
}

/**
 * Streams one file into its own new folder in the inbox. The folder is listed in `made` before it
 * exists, so an upload that fails at any point (a closed tab mid-file included) can remove it.
 */
async function save(inbox: string, name: string, body: Readable, made: string[]): Promise<string> {
  const dir = path.join(inbox, randomUUID());
  made.push(dir);
  // Private like the rest of the state folder (see private-files.ts).
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = path.join(dir, safeFileName(name));
  await pipeline(body, createWriteStream(file, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
  return file;
}

async function multipart(
  req: FastifyRequest,
  inbox: string,
  fields: Record<string, string>,
  made: string[],
): Promise<string[]> {
  const saving: Array<Promise<string>> = [];
  const bb = busboy({
    headers: req.headers,
    limits: { files: MAX_FILES, fields: 20, fieldSize: 100_000 },
    // Browsers write file names as raw UTF-8; busboy would read them as latin1.
    defParamCharset: 'utf8',
  });
  bb.on('field', (name, value) => {
    fields[name] = value;
  });
  bb.on('file', (_field, stream, info) => {
    const p = save(inbox, info.filename || 'upload.bin', stream, made);
    p.catch(() => stream.resume());
    saving.push(p);
  });
  try {
    // A request cut short errors here (and busboy then fails the file it was writing).
    await pipeline(req.raw, bb);
  } catch (e) {
    // Every file must have stopped writing before its folder can be removed for good.
    await Promise.allSettled(saving);
    throw e;
  }
  return Promise.all(saving);
}

export async function receiveUpload(
  rt: Pick<Services, 'stateDir' | 'queue'>,
  handlers: Handlers,
  req: FastifyRequest,
): Promise<Result<AddOutcomeView[]>> {
  const inbox = path.join(rt.stateDir, 'inbox');
  const fields: Record<string, string> = {};
  const query = (req.query ?? {}) as Record<string, string | undefined>;
  let files: string[] = [];
  const made: string[] = [];
  // Files of a refused, failed or abandoned upload are not kept: nothing else would ever clear them.
  const discard = () => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
  try {
    if ((req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
      files = await multipart(req, inbox, fields, made);
    } else {
      if (!query.name) {
        return {
          ok: false,
          error: { code: 'INVALID_PARAMS', message: 'A raw upload needs ?name=<file name>.', retryable: false },
        };
      }
      files = [await save(inbox, query.name, req.raw, made)];
    }
    if (files.length === 0) {
      return { ok: false, error: { code: 'INVALID_PARAMS', message: 'The upload held no file.', retryable: false } };
    }
    const templateId = fields.templateId ?? query.templateId;
    const paramsText = fields.params ?? query.params;
    let params: unknown;
    try {
      params = paramsText ? JSON.parse(paramsText) : undefined;
    } catch {
      params = paramsText; // the schema then refuses it as INVALID_PARAMS
    }
    const r = (await dispatch(handlers, 'queue:add', {
      paths: files,
      ...(templateId ? { templateId } : {}),
      ...(params !== undefined ? { params } : {}),
    })) as Result<AddOutcomeView[]>;
    if (!r.ok) await discard();
    else {
      // A file refused as not media is not kept either: it would never be processed or cleared.
      // Nor is a second drop of a file already taken (the same content under the same name): its
      // job holds the first copy, unless the job took this one (a first copy gone: it moved here).
      const notKept = new Set(
        r.value.flatMap((o) => {
          if (o.outcome === 'rejected') return [path.dirname(o.path)];
          if (o.outcome !== 'already-queued' && o.outcome !== 'already-done') return [];
          const job = rt.queue.job(o.jobId);
          const held = [job?.source.path, job?.movedTo].some(
            (p) => p !== undefined && path.dirname(p) === path.dirname(o.path),
          );
          return job && !held ? [path.dirname(o.path)] : [];
        }),
      );
      await Promise.all(made.filter((d) => notKept.has(d)).map((d) => rm(d, { recursive: true, force: true })));
    }
    return r;
  } catch (e) {
    await discard();
    return { ok: false, error: toBridgeError(e) };
  }
}
