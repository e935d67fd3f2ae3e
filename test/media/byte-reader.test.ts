import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReader, openReaderNow, withReadAhead, type ByteReader } from '../../main/media/byte-reader.js';
import { containerCheckOf } from '../../main/media/container-layout.js';
import { fingerprintFile, fingerprintHandle } from '../../main/adapters/queue/fingerprint.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-reader-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openReader', () => {
  it('reads bytes where asked, knows the size, and closes once however often asked', async () => {
    const file = path.join(dir, 'a.bin');
    await writeFile(file, Buffer.from('0123456789abcdef'));
    const r = await openReader(file);
    expect(await r.stat()).toEqual({ size: 16 });
    const buf = Buffer.alloc(4);
    expect(await r.read(buf, 0, 4, 10)).toEqual({ bytesRead: 4 });
    expect(buf.toString()).toBe('abcd');
    // Past the end: what is there, no error.
    expect((await r.read(Buffer.alloc(8), 0, 8, 12)).bytesRead).toBe(4);
    await r.close();
    await expect(r.close()).resolves.toBeUndefined();
    await expect(r.read(buf, 0, 4, 0)).rejects.toMatchObject({ code: 'EBADF' });
  });

  it('a missing file rejects with its code, as the settle check tells a gone file from an unreadable one', async () => {
    await expect(openReader(path.join(dir, 'gone.wav'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('the container check and the fingerprint read the same through it as through a FileHandle', async () => {
    // A WAV whose RIFF size says 1 MiB more than is there: a copy cut short.
    const head = Buffer.alloc(44);
    head.write('RIFF', 0, 'latin1');
    head.writeUInt32LE(36 + 1_048_576, 4);
    head.write('WAVEfmt ', 8, 'latin1');
    const file = path.join(dir, 'short.wav');
    await writeFile(file, Buffer.concat([head, Buffer.alloc(5000, 7)]));
    const r = await openReader(file);
    try {
      const { wholeness } = await containerCheckOf(r, (await r.stat()).size, file);
      expect(wholeness.whole).toBe(false);
      expect(await fingerprintHandle(r, 5044)).toBe(await fingerprintFile(file));
    } finally {
      await r.close();
    }
  });
});

describe('openReaderNow', () => {
  it('reads what openReader reads, throws as it rejects, and hears how long each call took', async () => {
    const file = path.join(dir, 'b.bin');
    await writeFile(file, Buffer.from('0123456789abcdef'));
    const took: number[] = [];
    const r = openReaderNow(file, (ms) => took.push(ms));
    expect(await r.stat()).toEqual({ size: 16 });
    const buf = Buffer.alloc(4);
    expect(await r.read(buf, 0, 4, 10)).toEqual({ bytesRead: 4 });
    expect(buf.toString()).toBe('abcd');
    expect((await r.read(Buffer.alloc(8), 0, 8, 12)).bytesRead).toBe(4);
    await r.close();
    await expect(r.close()).resolves.toBeUndefined();
    await expect(r.read(buf, 0, 4, 0)).rejects.toMatchObject({ code: 'EBADF' });
    // open, stat, two reads, close, the read after close: each timed once.
    expect(took).toHaveLength(6);
    expect(took.every((ms) => ms >= 0)).toBe(true);
    expect(() => openReaderNow(path.join(dir, 'gone.wav'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

describe('withReadAhead', () => {
  /** A reader over bytes in memory that counts its reads. */
  function counted(bytes: Buffer): ByteReader & { reads: number } {
    const r = {
      reads: 0,
      stat: () => Promise.resolve({ size: bytes.length }),
      read: (buffer: Buffer, offset: number, length: number, position: number) => {
        r.reads++;
        const n = Math.max(0, Math.min(length, bytes.length - position));
        if (n > 0) bytes.copy(buffer, offset, position, position + n);
        return Promise.resolve({ bytesRead: n });
      },
    };
    return r;
  }

  it('answers every read with the same bytes as the reader under it, wherever and however long', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 200_000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 210_000 }), fc.integer({ min: 0, max: 70_000 })), {
          minLength: 1,
          maxLength: 6,
        }),
        async (size, reads) => {
          const bytes = Buffer.alloc(size);
          for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 0xff;
          const plain = counted(bytes);
          const ahead = withReadAhead(counted(bytes), size);
          for (const [at, len] of [[0, 16] as const, ...reads]) {
            const a = Buffer.alloc(len, 0xee);
            const b = Buffer.alloc(len, 0xee);
            const ra = await ahead.read(a, 0, len, at);
            const rb = await plain.read(b, 0, len, at);
            expect(ra.bytesRead).toBe(rb.bytesRead);
            expect(a.equals(b)).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a small file checked and fingerprinted is read once', async () => {
    const head = Buffer.alloc(44);
    head.write('RIFF', 0, 'latin1');
    head.writeUInt32LE(36 + 900, 4);
    head.write('WAVEfmt ', 8, 'latin1');
    const bytes = Buffer.concat([head, Buffer.alloc(900, 3)]);
    const under = counted(bytes);
    const r = withReadAhead(under, bytes.length);
    const { wholeness } = await containerCheckOf(r, bytes.length, 'take.wav');
    expect(wholeness.whole).toBe(true);
    const file = path.join(dir, 'take.wav');
    await writeFile(file, bytes);
    expect(await fingerprintHandle(r, bytes.length)).toBe(await fingerprintFile(file));
    expect(under.reads).toBe(1);
  });
});
