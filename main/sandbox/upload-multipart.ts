// Multipart upload (§4.4c, C9): exactly two parts identified by POSITION, whatever their names:
// (1) the JSON HttpStreamConfigurationDto (≤ 1 MB), (2) the data. The stream is created when the
// data part starts, so a bad configuration creates nothing.
import { Readable } from 'node:stream';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { MULTIPART } from '../service/policy.js';
import type { StreamDto } from '../service/types.js';
import { SandboxHttpError } from './http-error.js';
import { createStream, feedStream, type Prepared } from './upload-stream.js';

const configError = (message: string): SandboxHttpError =>
  new SandboxHttpError(400, 'HTTP_STREAM_CONFIGURATION_ERROR', message, { title: 'Invalid stream configuration' });

type Config = { patches?: unknown; webhook?: unknown };

function parseConfig(buf: Buffer, truncated: boolean): Config {
  if (truncated || buf.length > MULTIPART.configurationMaxBytes) {
    throw configError(`The configuration part exceeds ${MULTIPART.configurationMaxBytes} bytes`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(buf.toString('utf8'));
  } catch {
    throw configError('The configuration part is not valid JSON');
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw configError('The configuration part must be a JSON object');
  return doc as Config;
}

export function handleMultipart(request: FastifyRequest, prepared: Prepared, cut: () => void): Promise<StreamDto> {
  const raw = request.raw;
  return new Promise<StreamDto>((resolve, reject) => {
    let settled = false;
    let index = 0;
    // A configuration part sent as a file ends asynchronously, possibly after the data part began.
    let config: Promise<Config> | null = null;
    let data: Promise<StreamDto> | null = null;
    let current: Readable | null = null;
    const fail = (e: unknown): void => {
      if (settled) return;
      settled = true;
      current?.resume();
      raw.unpipe(bb);
      raw.resume(); // drain whatever the client still sends, so it can read our answer
      reject(e);
    };
    const onData = (stream: Readable): void => {
      current = stream;
      if (!config) {
        stream.resume();
        return;
      }
      stream.pause();
      data = config.then((cfg) => {
        if (settled) throw new Error('already answered');
        const rec = createStream(prepared, cfg);
        return feedStream(prepared.ctx, rec, stream, cut, () => raw.complete);
      });
      data.catch(fail);
    };
    const bb = busboy({
      headers: request.headers,
      limits: { fieldSize: MULTIPART.configurationMaxBytes, parts: 16 },
    });
    bb.on('field', (_name, value, info) => {
      const i = index++;
      if (i === 0) config = Promise.resolve().then(() => parseConfig(Buffer.from(value, 'utf8'), info.valueTruncated));
      else if (i === 1) onData(Readable.from([Buffer.from(value, 'utf8')]));
    });
    bb.on('file', (_name, stream) => {
      const i = index++;
      if (i === 1) return onData(stream);
      if (i > 1) return stream.resume();
      const chunks: Buffer[] = [];
      let size = 0;
      config = new Promise<Config>((res, rej) => {
        stream.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MULTIPART.configurationMaxBytes + 1) chunks.push(c);
        });
        stream.on('end', () => {
          try {
            res(parseConfig(Buffer.concat(chunks), size > MULTIPART.configurationMaxBytes));
          } catch (e) {
            rej(e);
          }
        });
        stream.on('error', rej);
      });
      config.catch(fail);
    });
    bb.on('error', (e) => {
      current?.destroy(e instanceof Error ? e : new Error(String(e)));
      if (!data) fail(configError('Malformed multipart body'));
    });
    bb.on('close', () => {
      if (settled) return;
      if (!data) {
        const missing = configError('Expected two parts: the JSON configuration, then the data');
        return void (config ?? Promise.resolve()).then(() => fail(missing), fail);
      }
      data.then((dto) => {
        settled = true;
        resolve(dto);
      }, fail);
    });
    raw.on('close', () => {
      if (!raw.complete) current?.destroy(new Error('aborted'));
    });
    raw.pipe(bb);
  });
}
