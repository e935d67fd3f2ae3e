// A settled file's fingerprint read through the settle check's own handle is the fingerprint the
// intake would read itself, and is read only when the taker asks for it.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintFile, fingerprintHandle } from '../../../../main/adapters/queue/fingerprint.js';
import {
  SettleChecker,
  type DetectedFile,
  type Fingerprinter,
} from '../../../../main/adapters/watch/settle/settle-checker.js';
import { makeMediaDir } from '../../../helpers/media.js';

const MIB = 1 << 20;
let dir: string;
beforeAll(async () => {
  dir = await makeMediaDir('sluice-settle-fp-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function settle(file: string, fingerprint: Fingerprinter): Promise<DetectedFile> {
  return new Promise((resolve, reject) => {
    const checker = new SettleChecker({
      folderId: 'f',
      settleMs: 30,
      now: Date.now,
      fingerprint,
      onFile: resolve,
      onProblem: (_p, m) => reject(new Error(m)),
    });
    checker.enqueue(file);
  });
}

describe('settle check fingerprint', () => {
  it('hands in the same fingerprint the intake reads, for a small and a large file', async () => {
    for (const [name, size] of [
      ['small.bin', 5000],
      ['large.bin', 5 * MIB + 17],
    ] as const) {
      const file = path.join(dir, name);
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i += 997) bytes[i] = i % 251;
      await writeFile(file, bytes);
      const asked: Array<{ path: string; size: number }> = [];
      const found = await settle(file, (f, h, s) => {
        asked.push({ path: f.path, size: s });
        return fingerprintHandle(h, s);
      });
      expect(asked).toEqual([{ path: file, size }]);
      expect(found.contentHash).toBe(await fingerprintFile(file));
      expect(found.size).toBe(size);
    }
  });

  it('hands in none when the taker wants none, and a failing read costs the file nothing', async () => {
    const file = path.join(dir, 'known.bin');
    await writeFile(file, Buffer.alloc(1000, 7));
    expect((await settle(file, () => undefined)).contentHash).toBeUndefined();
    const failed = await settle(file, () => Promise.reject(new Error('read failed')));
    expect(failed.contentHash).toBeUndefined();
    expect(failed.path).toBe(file);
  });
});
