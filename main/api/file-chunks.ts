// An upload body read from disk in chunks sized to the link.
import { open } from 'node:fs/promises';

// Chunk sizes adapt to the link: each read is sized so the socket takes it in about CHUNK_TARGET_MS
// (doubling or halving between 256 KiB and 4 MiB). Measured on a 2 GB upload to the sandbox:
// 4 MiB reads against 256 KiB ones cut the client's CPU time by more than half, and 256 KiB slices
// of a 4 MiB read lose that gain; on a slow link 256 KiB keeps progress and the idle timer moving.
export const MIN_CHUNK_BYTES = 256 * 1024;
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
const CHUNK_TARGET_MS = 100;

/** Reads `total` bytes of a file in link-sized chunks; a new buffer each time (the socket may keep it). */
export async function* fileChunks(path: string, total: number, touch: () => void): AsyncGenerator<Uint8Array> {
  const file = await open(path, 'r');
  try {
    let size = MIN_CHUNK_BYTES;
    let position = 0;
    while (position < total) {
      const buf = Buffer.allocUnsafe(Math.min(size, total - position));
      const { bytesRead } = await file.read(buf, 0, buf.length, position);
      if (bytesRead === 0) return; // the file shrank: the request fails on its declared length
      position += bytesRead;
      touch();
      const handedAt = performance.now();
      yield buf.subarray(0, bytesRead);
      // The generator resumes when undici wants more: how long the socket took to take this chunk.
      const took = performance.now() - handedAt;
      if (took < CHUNK_TARGET_MS / 2) size = Math.min(size * 2, MAX_CHUNK_BYTES);
      else if (took > CHUNK_TARGET_MS * 2) size = Math.max(size / 2, MIN_CHUNK_BYTES);
    }
  } finally {
    await file.close();
  }
}
