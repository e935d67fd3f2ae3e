// An upload body read from disk in chunks sized to the link.
import { open, type FileHandle } from 'node:fs/promises';

// Chunk sizes follow the link: each read is sized so the link carries it in about CHUNK_TARGET_MS
// (between 128 KiB and 4 MiB). Measured on a 2 GB upload to the sandbox: 4 MiB reads against
// 256 KiB ones cut the client's CPU time by more than half, and 256 KiB slices of a 4 MiB read lose
// that gain. On a slow link the chunk is also the grain of the progress: a chunk counts as sent
// only once the socket has taken all of it, so the bytes counted lag the socket by up to a chunk.
export const MIN_CHUNK_BYTES = 128 * 1024;
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
const CHUNK_TARGET_MS = 100;
/**
 * Chunks grow only past this many bytes. The first megabytes of any upload are taken at memory
 * speed by the send (and, on loopback or a LAN, receive) buffers, whatever the line: grown on those,
 * a slow line got 4 MiB chunks, progress once every 14 s at 300 KB/s, and no speed to show for the
 * first half minute.
 */
export const GROW_AFTER_BYTES = 8 * 1024 * 1024;
/**
 * The link's pace is read over at least this long (or GROW_AFTER_BYTES taken). Not from one chunk:
 * a slow link's socket takes a third of its send buffer (a megabyte or more) in one go each time
 * the buffer has drained that much, so single chunks look taken at memory speed; grown on those,
 * 4 MiB chunks on a 300 KB/s line moved the bytes counted in 1-2 MB steps.
 */
const PACE_SPAN_MS = 500;

/** The chunk the link carries in about CHUNK_TARGET_MS at `bytesPerMs`: a power of two in range. */
function chunkFor(bytesPerMs: number): number {
  let size = MIN_CHUNK_BYTES;
  while (size * 2 <= Math.min(MAX_CHUNK_BYTES, bytesPerMs * CHUNK_TARGET_MS)) size *= 2;
  return size;
}

/**
 * Two buffers, used in turn. A chunk's buffer is read into again only after the consumer has
 * asked for the chunk after it. undici's iterable body (client-h1 `writeIterable`) writes a chunk
 * and, when `socket.write` reports its queue at the high-water mark, waits for 'drain' before it
 * asks for the next; after 'drain' the socket holds none of the earlier bytes. Every chunk but a
 * file's last is at least MIN_CHUNK_BYTES, above any socket's high-water mark (16 KiB in Node 20,
 * 64 KiB from Node 22), so it always waits; no read follows the last chunk. A fresh buffer per
 * chunk cost every upload a page fault per 4 KiB and the garbage to collect: on a 2 GiB upload to
 * the sandbox, 7.4 s against 6.2 s reusing two (medians of 8, curl 6.3 s).
 */
class BufferPair {
  readonly #slots: Buffer[] = [];
  #turn = 0;

  next(size: number): Buffer {
    const i = this.#turn;
    this.#turn ^= 1;
    const held = this.#slots[i];
    if (held && held.length >= size) return held.subarray(0, size);
    const fresh = Buffer.allocUnsafeSlow(size);
    this.#slots[i] = fresh;
    return fresh;
  }
}

async function readAt(file: FileHandle, buf: Buffer, position: number): Promise<Uint8Array> {
  const { bytesRead } = await file.read(buf, 0, buf.length, position);
  return buf.subarray(0, bytesRead);
}

/**
 * Reads `total` bytes of a file (a path, or an open handle, read from its first byte) in link-sized
 * chunks. The next chunk is read while the socket takes this one, so the disk and the link overlap. A yielded chunk is valid until the consumer asks for
 * the next one (see BufferPair): a consumer that keeps chunks must copy them.
 */
export async function* fileChunks(
  source: string | FileHandle,
  total: number,
  touch: () => void,
): AsyncGenerator<Uint8Array> {
  // A path is opened and closed here; a handle is the caller's to close.
  const file = typeof source === 'string' ? await open(source, 'r') : source;
  const buffers = new BufferPair();
  let size = MIN_CHUNK_BYTES;
  let position = 0;
  // Where the link's pace was last read from.
  let mark = { at: performance.now(), position: 0 };
  // The read under way: the next chunk, read while the socket takes this one.
  let next: Promise<Uint8Array> | undefined = readAt(file, buffers.next(Math.min(size, total)), 0);
  try {
    while (next) {
      const chunk = await next;
      next = undefined;
      if (chunk.length === 0) return; // the file shrank: the request fails on its declared length
      position += chunk.length;
      touch();
      if (position < total) next = readAt(file, buffers.next(Math.min(size, total - position)), position);
      const handedAt = performance.now();
      yield chunk;
      // The generator resumes when undici wants more: the socket has taken this chunk.
      const now = performance.now();
      if (now - handedAt > CHUNK_TARGET_MS * 2) size = Math.max(size / 2, MIN_CHUNK_BYTES);
      else if (now - mark.at >= PACE_SPAN_MS || position - mark.position >= GROW_AFTER_BYTES) {
        if (position >= GROW_AFTER_BYTES) size = chunkFor((position - mark.position) / Math.max(1, now - mark.at));
        mark = { at: now, position };
      }
    }
  } finally {
    // A read still under way (the request ended early) settles, failed or not, before the file closes.
    await next?.catch(() => undefined);
    if (typeof source === 'string') await file.close();
  }
}
