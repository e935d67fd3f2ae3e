// Streams an upload body to a file without buffering it (a 4 GB upload keeps memory flat),
// counting bytes and hashing them on the way (the hash seeds the simulated results).
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { PassThrough, Transform, type Readable } from 'node:stream';
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
  /**
   * Fault: the body reaches the stream at most `bytesPerSecond`. `buffered`: it is taken off the
   * connection at once, as a buffering proxy would, so a client that dies after its last byte left
   * still delivers the whole file (one that dies earlier delivers what it sent, then the cut).
   * Otherwise the connection itself is read at that rate, and a client that dies cuts the body short.
   */
  throttle?: { bytesPerSecond: number; buffered: boolean } | undefined;
}

const THROTTLE_SLICE_BYTES = 8 * 1024;

const PROXY_BUFFER_BYTES = 256 * 1024 * 1024;

/** Reads `source` as fast as it comes; what arrived is passed on even if the connection dies. */
function buffered(source: Readable): Readable {
  const pass = new PassThrough({ highWaterMark: PROXY_BUFFER_BYTES });
  source.pipe(pass);
  source.once('close', () => {
    if (!pass.writableEnded) pass.end();
  });
  return pass;
}

/** Passes chunks on no faster than `bytesPerSecond`, in small slices so the rate stays even. */
function throttle(bytesPerSecond: number): Transform {
  const started = Date.now();
  let passed = 0;
  return new Transform({
    highWaterMark: THROTTLE_SLICE_BYTES,
    transform(chunk: Buffer, _enc, cb) {
      const push = async (): Promise<void> => {
        for (let off = 0; off < chunk.length; off += THROTTLE_SLICE_BYTES) {
          const slice = chunk.subarray(off, off + THROTTLE_SLICE_BYTES);
          passed += slice.length;
          const due = started + (passed / bytesPerSecond) * 1000;
          const wait = due - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          this.push(slice);
        }
      };
      push().then(() => cb(), cb);
    },
  });
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
    const sink = createWriteStream(path, { highWaterMark: SINK_BUFFER_BYTES });
    const t = opts.throttle;
    if (t) await pipeline(t.buffered ? buffered(source) : source, throttle(t.bytesPerSecond), meter, sink);
    else await pipeline(source, meter, sink);
  } catch {
    throw new UploadInterruptedError(bytes);
  }
  return { bytes, hash: hash.digest('hex') };
}
