import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileChunks, GROW_AFTER_BYTES, MAX_CHUNK_BYTES, MIN_CHUNK_BYTES } from '../../main/api/file-chunks.js';

let dir: string;
let file: string;
let content: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-chunks-'));
  file = path.join(dir, 'media.bin');
  content = Buffer.alloc(24 * 1024 * 1024 + 12345);
  for (let i = 0; i < content.length; i += 4096) content.writeUInt32LE(i, i);
  await writeFile(file, content);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

async function drain(total: number, consumeMs: number): Promise<{ sizes: number[]; touches: number; hash: string }> {
  const sizes: number[] = [];
  const hash = createHash('sha256');
  let touches = 0;
  for await (const chunk of fileChunks(file, total, () => touches++)) {
    sizes.push(chunk.length);
    hash.update(chunk);
    if (consumeMs) await new Promise((r) => setTimeout(r, consumeMs));
  }
  return { sizes, touches, hash: hash.digest('hex') };
}

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('fileChunks', () => {
  it('a socket that takes chunks at once: chunks grow to the largest size, every byte in order', async () => {
    const r = await drain(content.length, 0);
    expect(r.hash).toBe(sha(content));
    expect(r.sizes[0]).toBe(MIN_CHUNK_BYTES);
    expect(Math.max(...r.sizes)).toBe(MAX_CHUNK_BYTES);
    // Not on the first megabytes, which any socket's buffers take at once, slow line or not.
    const grownAt = r.sizes.findIndex((n) => n > MIN_CHUNK_BYTES);
    expect(r.sizes.slice(0, grownAt).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(GROW_AFTER_BYTES);
    expect(r.touches).toBe(r.sizes.length);
  });

  it('a slow socket keeps the smallest chunks, so progress moves often', async () => {
    const total = 8 * MIN_CHUNK_BYTES;
    const r = await drain(total, 250);
    expect(r.sizes).toEqual(Array(8).fill(MIN_CHUNK_BYTES));
    expect(r.hash).toBe(sha(content.subarray(0, total)));
  });

  it('sends only the announced length of a file that grew', async () => {
    const r = await drain(1000, 0);
    expect(r.sizes).toEqual([1000]);
  });

  it('stops early when the file is shorter than announced (the request then fails on its length)', async () => {
    const r = await drain(content.length + 10, 0);
    expect(r.sizes.reduce((a, b) => a + b, 0)).toBe(content.length);
  });
});

describe('fileChunks reading ahead', () => {
  it("every chunk but the last is above a socket's high-water mark, so undici drains it before asking again", () => {
    // The two buffers are reused on that promise (see BufferPair in main/api/file-chunks.ts).
    expect(MIN_CHUNK_BYTES).toBeGreaterThan(new Socket().writableHighWaterMark);
  });

  const openFds = (): number => readdirSync('/proc/self/fd').length;

  it('a request that ends after the first chunk leaves no read running and no file open', async () => {
    const before = openFds();
    for (let i = 0; i < 20; i++) {
      for await (const chunk of fileChunks(file, content.length, () => undefined)) {
        expect(chunk.length).toBe(MIN_CHUNK_BYTES);
        break; // the socket failed: the generator returns while its next read is under way
      }
    }
    expect(openFds()).toBe(before);
  });

  it('bytes stay in order whatever the pace of the socket between chunks', async () => {
    const hash = createHash('sha256');
    let i = 0;
    for await (const chunk of fileChunks(file, content.length, () => undefined)) {
      hash.update(chunk);
      if (i++ % 3 === 0) await new Promise((r) => setTimeout(r, 60));
    }
    expect(hash.digest('hex')).toBe(sha(content));
  });
});
