import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReader } from '../../../main/adapters/media/byte-reader.js';
import { containerCheckOf } from '../../../main/adapters/media/container-layout.js';
import { fingerprintFile, fingerprintHandle } from '../../../main/adapters/queue/fingerprint.js';

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
