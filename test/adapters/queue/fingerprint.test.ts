// The fast fingerprint reads the size and three MiB; the full hash reads every byte.
import { open, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintFile, hashFile } from '../../../main/adapters/queue/fingerprint.js';
import { makeMediaDir } from '../../helpers/media.js';

const MIB = 1 << 20;
let dir: string;
beforeAll(async () => {
  dir = await makeMediaDir('sluice-fingerprint-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function flip(file: string, at: number): Promise<void> {
  const fh = await open(file, 'r+');
  const b = Buffer.alloc(1);
  await fh.read(b, 0, 1, at);
  b[0] = b[0]! ^ 0xff;
  await fh.write(b, 0, 1, at);
  await fh.close();
}

describe('content fingerprint', () => {
  it('changes with the first, middle or last MiB and with the size; not with bytes between them', async () => {
    const file = path.join(dir, 'big.mp4');
    const bytes = Buffer.alloc(10 * MIB);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) % 251;
    await writeFile(file, bytes);
    const base = await fingerprintFile(file);
    expect(base).toMatch(/^fp1:[0-9a-f]{64}$/);
    for (const at of [10, 5 * MIB, 10 * MIB - 10]) {
      await flip(file, at);
      expect(await fingerprintFile(file), `byte ${at}`).not.toBe(base);
      await flip(file, at);
    }
    expect(await fingerprintFile(file)).toBe(base);
    // Between the sampled MiB: only the full hash sees it (the option Settings keep for that).
    const full = await hashFile(file);
    await flip(file, 2 * MIB + 7);
    expect(await fingerprintFile(file)).toBe(base);
    expect(await hashFile(file)).not.toBe(full);
  });

  it('reads a small file whole', async () => {
    const file = path.join(dir, 'small.wav');
    await writeFile(file, Buffer.alloc(100_000, 7));
    const base = await fingerprintFile(file);
    await flip(file, 50_000);
    expect(await fingerprintFile(file)).not.toBe(base);
  });
});
