// Streams an upload body to a file without buffering it (a 4 GB upload keeps memory flat),
// counting bytes and hashing them on the way (the hash seeds the simulated results).
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const SINK_BUFFER_BYTES = 4 * 1024 * 1024;

export interface BodyReceipt {
  bytes: number;
  hash: string;
}

export interface SinkOptions {
  /** Fault: after this many bytes, call `cut` (which destroys the socket) and stop. */
  resetAfterBytes?: number | undefined;
  cut?: () => void;
  /** Progress callback (bytes so far), for the record's live byte count. */
  onBytes?: (bytes: number) => void;
}

export class UploadInterruptedError extends Error {
  constructor(readonly bytes: number) {
    super('Upload interrupted');
  }
}

export async function receiveBody(source: Readable, path: string, opts: SinkOptions = {}): Promise<BodyReceipt> {
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    highWaterMark: SINK_BUFFER_BYTES,
    transform(chunk: Buffer, _enc, cb) {
      const limit = opts.resetAfterBytes;
      if (limit !== undefined && bytes + chunk.length >= limit) {
        const head = chunk.subarray(0, Math.max(0, limit - bytes));
        bytes += head.length;
        hash.update(head);
        opts.onBytes?.(bytes);
        opts.cut?.();
        cb(new UploadInterruptedError(bytes));
        return;
      }
      bytes += chunk.length;
      hash.update(chunk);
      opts.onBytes?.(bytes);
      cb(null, chunk);
    },
  });
  try {
    // Large buffers: queued socket chunks reach the disk as one writev, and the socket is paused
    // far less often (with the 16 KiB default the sink costs more CPU than the hashing).
    await pipeline(source, meter, createWriteStream(path, { highWaterMark: SINK_BUFFER_BYTES }));
  } catch {
    throw new UploadInterruptedError(bytes);
  }
  return { bytes, hash: hash.digest('hex') };
}
