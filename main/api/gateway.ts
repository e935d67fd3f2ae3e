// HTTP gateway (§4): create a stream and feed it a file, streamed from disk (memory stays flat for
// any size), with progress, abort and an idle timeout. Never replayed on failure: after a failed
// upload the engine decides between "same id" and "new id" (§15.2).
import { basename } from 'node:path';
import { randomUUID } from 'node:crypto';
import { inputError } from './error-mapping.js';
import { fileChunks } from './file-chunks.js';
import type { BodySource, HttpCore } from './http.js';
import { LINK_BODY } from '../service/policy.js';
import { parseStream } from './responses.js';
import { multipartFraming, planUpload, type UploadParams } from './upload-request.js';
import type { StreamDto } from '../service/types.js';
import { openReadableFile, requireTemplateId, requireUuid } from './validate.js';

export interface UploadOptions extends Omit<UploadParams, 'name'> {
  /** The media file (4.4a); exactly one of filePath / mediaUrl. */
  filePath?: string;
  /** A public http(s) link the service fetches itself (4.4b). */
  mediaUrl?: string;
  /** Default: the file's base name. */
  name?: string;
  /** Bytes of the media sent so far, and the media size. Called often: coalesce in the caller. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  /** Longest stretch without progress; default TIMEOUTS_MS.uploadIdle. There is no total limit. */
  idleTimeoutMs?: number;
}

interface Media {
  total: number;
  name: string;
  chunks: (touch: () => void) => AsyncIterable<Uint8Array>;
  close?: () => Promise<void>;
}

async function openMedia(op: string, o: UploadOptions): Promise<Media> {
  if ((o.filePath === undefined) === (o.mediaUrl === undefined)) {
    throw inputError(op, 'Give exactly one of a file path or a media URL to upload.');
  }
  if (o.mediaUrl !== undefined) {
    const bytes = Buffer.from(o.mediaUrl, 'utf8');
    const url = URL.canParse(o.mediaUrl) ? new URL(o.mediaUrl) : undefined;
    if (!url || !LINK_BODY.pattern.test(o.mediaUrl) || bytes.length > LINK_BODY.maxBytes) {
      throw inputError(op, `The media URL must be an http(s) link of at most ${LINK_BODY.maxBytes} bytes.`);
    }
    const name = basename(url.pathname) || url.host;
    return {
      total: bytes.length,
      name,
      chunks: async function* () {
        yield bytes;
      },
    };
  }
  const path = o.filePath as string;
  const { file, size } = await openReadableFile(op, path);
  return {
    total: size,
    name: basename(path),
    // Read from the first byte at each attempt (a credentials refresh resends it all).
    chunks: (touch) => fileChunks(file, size, touch),
    close: () => file.close(),
  };
}

export class GatewayApi {
  constructor(private readonly core: HttpCore) {}

  async upload(o: UploadOptions): Promise<StreamDto> {
    const op = 'upload';
    requireTemplateId(op, o.templateId);
    requireUuid(op, 'stream id', o.streamId);
    if (o.groupId !== undefined) requireUuid(op, 'group id', o.groupId);
    const media = await openMedia(op, o);
    try {
      return await this.send(op, o, media);
    } finally {
      await media.close?.().catch(() => undefined);
    }
  }

  private async send(op: string, o: UploadOptions, media: Media): Promise<StreamDto> {
    const name = o.name ?? media.name;
    const plan = planUpload({ ...o, name });
    const onProgress = o.onProgress;

    let body: BodySource;
    let headers: Record<string, string>;
    if (plan.multipartConfiguration === undefined) {
      headers = { 'content-type': 'application/octet-stream', 'content-length': String(media.total) };
      body = (touch) => counted(media, touch, onProgress);
    } else {
      const boundary = `sluice-${randomUUID()}`;
      const { head, tail } = multipartFraming(plan.multipartConfiguration, name, boundary);
      headers = {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + media.total + tail.length),
      };
      body = (touch) =>
        (async function* () {
          yield head;
          yield* counted(media, touch, onProgress);
          yield tail;
        })();
    }

    const path = '/upload';
    const res = await this.core.call({
      service: 'gateway',
      operation: op,
      method: 'POST',
      path,
      query: plan.query,
      headers,
      body,
      timeoutMs: o.idleTimeoutMs ?? this.core.timeouts.uploadIdle,
      idle: true,
      retry: 'never',
      signal: o.signal,
    });
    return parseStream(res.body, this.core.where('gateway', path));
  }
}

async function* counted(
  media: Media,
  touch: () => void,
  onProgress: ((sent: number, total: number) => void) | undefined,
): AsyncGenerator<Uint8Array> {
  let sent = 0;
  onProgress?.(0, media.total);
  for await (const chunk of media.chunks(touch)) {
    yield chunk;
    // Counted once undici asked for the next chunk, i.e. the previous one was handed to the socket.
    sent += chunk.length;
    onProgress?.(sent, media.total);
  }
}
