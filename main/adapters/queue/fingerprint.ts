// Content identity of a file: a fast fingerprint (the size and the SHA-256 of its first, middle and
// last MiB: three reads, whatever the file's size) or, when Settings ask for it, the SHA-256 of
// every byte. See engine/file-identity.ts for how they are compared.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { FINGERPRINT_PREFIX } from '../../engine/file-identity.js';
import type { ByteReader } from '../../media/byte-reader.js';

const MIB = 1 << 20;

export async function fingerprintFile(file: string): Promise<string> {
  const fh = await open(file, 'r');
  try {
    return await fingerprintHandle(fh, (await fh.stat()).size);
  } finally {
    await fh.close();
  }
}

/** The fingerprint read through a handle already open (a watch folder's settle check holds one); `size` from its fstat. */
export async function fingerprintHandle(fh: ByteReader, size: number): Promise<string> {
  const h = createHash('sha256');
  h.update(`${size}\n`);
  // Small files are read whole; larger ones at three places that a copy cut short or a re-encode changes.
  const starts = size <= 3 * MIB ? [0] : [0, Math.floor(size / 2 - MIB / 2), size - MIB];
  const length = size <= 3 * MIB ? size : MIB;
  const buf = Buffer.alloc(length);
  for (const at of starts) {
    const { bytesRead } = await fh.read(buf, 0, length, at);
    h.update(buf.subarray(0, bytesRead));
  }
  return FINGERPRINT_PREFIX + h.digest('hex');
}

/** SHA-256 of the file, streamed (the identity option that reads every byte). */
export async function hashFile(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: MIB })) h.update(chunk as Buffer);
  return h.digest('hex');
}
