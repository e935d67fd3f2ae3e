// An upload body read from disk in chunks sized to the link.
import { open, type FileHandle } from 'node:fs/promises';

// Chunk sizes adapt to the link: each read is sized so the socket takes it in about CHUNK_TARGET_MS
// (doubling or halving between 256 KiB and 4 MiB). Measured on a 2 GB upload to the sandbox:
// 4 MiB reads against 256 KiB ones cut the client's CPU time by more than half, and 256 KiB slices
// of a 4 MiB read lose that gain; on a slow link 256 KiB keeps progress and the idle timer moving.
export const MIN_CHUNK_BYTES = 256 * 1024;
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
const CHUNK_TARGET_MS = 100;
/**
 * Chunks grow only past this many bytes. The first megabytes of any upload are taken at memory
 * speed by the send (and, on loopback or a LAN, receive) buffers, whatever the line: grown on those,
 * a slow line got 4 MiB chunks, progress once every 14 s at 300 KB/s, and no speed to show for the
 * first half minute. Past the buffers, a chunk taken fast is the line's own pace.
 */
export const GROW_AFTER_BYTES = 8 * 1024 * 1024;

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
      // The generator resumes when undici wants more: how long the socket took to take this chunk.
      const took = performance.now() - handedAt;
      if (took < CHUNK_TARGET_MS / 2 && position >= GROW_AFTER_BYTES) size = Math.min(size * 2, MAX_CHUNK_BYTES);
      else if (took > CHUNK_TARGET_MS * 2) size = Math.max(size / 2, MIN_CHUNK_BYTES);
    }
  } finally {
    // A read still under way (the request ended early) settles, failed or not, before the file closes.
    await next?.catch(() => undefined);
    if (typeof source === 'string') await file.close();
  }
}
