// Claims on a shared folder under the faults network shares bring: a frozen heartbeat, a clock
// minutes ahead, a claim folder deleted under its owner, ESTALE, two computers taking over at once.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeClaimFs, type ClaimFs } from '../../../main/adapters/claims/claim-fs.js';
import { ClaimStore } from '../../../main/adapters/claims/claim-store.js';

const TIMEOUT = 60_000;
const T0 = 1_800_000_000_000;
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'sluice-claims-'));
  // A share holds the files claimed: an empty folder is what an unmounted share leaves (folder-root.ts).
  await writeFile(path.join(root, 'a.wav'), 'RIFF');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A computer with its own clock (`offset` from the shared test time). */
function computer(host: string, clock: { t: number }, offset = 0, fs?: ClaimFs): ClaimStore {
  return new ClaimStore(root, {
    host,
    instance: `${host}-1`,
    timeoutMs: TIMEOUT,
    refreshMs: 10_000,
    toleranceMs: 5_000,
    now: () => clock.t + offset,
    ...(fs ? { fs } : {}),
  });
}

const estale = (): NodeJS.ErrnoException => Object.assign(new Error('stale file handle'), { code: 'ESTALE' });

describe('claims', () => {
  it('one computer takes a file; the other is told who holds it while the lease is refreshed', async () => {
    const clock = { t: T0 };
    const a = computer('EDIT-BAY-1', clock);
    const b = computer('EDIT-BAY-2', clock);
    expect(await a.take('day1/a.mp4', 'k', 0)).toMatchObject({ kind: 'taken', attempt: 0 });
    for (let i = 0; i < 20; i++) {
      expect(await b.take('day1/a.mp4', 'k', 0)).toEqual({ kind: 'held', host: 'EDIT-BAY-1' });
      clock.t += 10_000;
      expect(await a.refresh('day1/a.mp4')).toBe('ok');
    }
    expect((await a.read('day1/a.mp4'))?.refreshCount).toBe(20);
  });

  it('a frozen heartbeat: taken over after timeout + tolerance by the reader’s clock, and the owner learns it lost', async () => {
    const clock = { t: T0 };
    const a = computer('EDIT-BAY-1', clock);
    const b = computer('EDIT-BAY-2', clock);
    await a.take('a.mp4', 'k', 2);
    expect((await b.take('a.mp4', 'k', 0)).kind).toBe('held');
    clock.t += TIMEOUT + 4_999;
    expect((await b.take('a.mp4', 'k', 0)).kind).toBe('held');
    clock.t += 1;
    const took = await b.take('a.mp4', 'k', 0);
    // The attempt travels with the claim: the next owner asks under the same id first.
    expect(took).toMatchObject({ kind: 'taken', attempt: 2, tookOver: 'EDIT-BAY-1' });
    expect(await a.refresh('a.mp4')).toBe('lost');
    expect((await a.read('a.mp4'))?.host).toBe('EDIT-BAY-2');
    // Nothing of the old claim is left beside the new one.
    expect(await readdir(path.join(root, '.sluice', 'claims'))).toHaveLength(1);
  });

  it('a clock 5 minutes ahead neither steals a live claim nor takes a dead one early', async () => {
    const clock = { t: T0 };
    const a = computer('EDIT-BAY-1', clock);
    const ahead = computer('EDIT-BAY-2', clock, 5 * 60_000);
    await a.take('a.mp4', 'k', 0);
    for (let i = 0; i < 12; i++) {
      expect((await ahead.take('a.mp4', 'k', 0)).kind).toBe('held');
      clock.t += 10_000;
      await a.refresh('a.mp4');
    }
    // The owner stops: still a full timeout by the fast clock before the claim is taken.
    expect((await ahead.take('a.mp4', 'k', 0)).kind).toBe('held');
    clock.t += TIMEOUT;
    expect((await ahead.take('a.mp4', 'k', 0)).kind).toBe('held');
    clock.t += 5_000;
    expect((await ahead.take('a.mp4', 'k', 0)).kind).toBe('taken');
  });

  it('an owner whose claim folder was deleted stands it up again; if another took it meanwhile, it lost', async () => {
    const clock = { t: T0 };
    const a = computer('EDIT-BAY-1', clock);
    const b = computer('EDIT-BAY-2', clock);
    await a.take('a.mp4', 'k', 0);
    await rm(a.claimDir('a.mp4'), { recursive: true });
    expect(await a.refresh('a.mp4')).toBe('ok');
    expect((await a.read('a.mp4'))?.host).toBe('EDIT-BAY-1');
    expect((await b.take('a.mp4', 'k', 0)).kind).toBe('held');

    await rm(a.claimDir('a.mp4'), { recursive: true });
    expect((await b.take('a.mp4', 'k', 0)).kind).toBe('taken');
    expect(await a.refresh('a.mp4')).toBe('lost');
  });

  it('ESTALE from the share reads as "gone", never as a crash or a lost claim', async () => {
    const clock = { t: T0 };
    let failNext = 0;
    const flaky: ClaimFs = {
      ...nodeClaimFs,
      readFile: (p, enc) =>
        p.endsWith('owner.json') && failNext-- > 0 ? Promise.reject(estale()) : nodeClaimFs.readFile(p, enc),
      rename: (f, t) =>
        t.endsWith('owner.json') && failNext-- > 0 ? Promise.reject(estale()) : nodeClaimFs.rename(f, t),
    };
    const a = computer('EDIT-BAY-1', clock, 0, flaky);
    const b = computer('EDIT-BAY-2', clock, 0, flaky);
    await a.take('a.mp4', 'k', 0);
    failNext = 1;
    // The owner's file cannot be read: held by someone unknown, and the count starts now.
    expect(await b.take('a.mp4', 'k', 0)).toEqual({ kind: 'held', host: 'another computer' });
    failNext = 2;
    expect(await a.refresh('a.mp4')).toBe('ok');
    expect(await a.refresh('a.mp4')).toBe('ok');
    expect((await b.take('a.mp4', 'k', 0)).kind).toBe('held');
  });

  it('of two computers taking over a stale claim at once, one wins', async () => {
    const clock = { t: T0 };
    const a = computer('EDIT-BAY-1', clock);
    const b = computer('EDIT-BAY-2', clock);
    const c = computer('EDIT-BAY-3', clock);
    await a.take('a.mp4', 'k', 0);
    await b.take('a.mp4', 'k', 0);
    await c.take('a.mp4', 'k', 0);
    clock.t += TIMEOUT + 5_000;
    const [rb, rc] = await Promise.all([b.take('a.mp4', 'k', 0), c.take('a.mp4', 'k', 0)]);
    expect([rb.kind, rc.kind].sort()).toEqual(['held', 'taken']);
  });

  it('a released file is done for everyone with the same content, and new for changed content', async () => {
    const clock = { t: T0 };
    const a = computer('EDIT-BAY-1', clock);
    const b = computer('EDIT-BAY-2', clock);
    await a.take('a.mp4', 'k', 0);
    await a.release('a.mp4', { key: 'k', state: 'completed', streamId: 's' });
    expect(await b.take('a.mp4', 'k', 0)).toMatchObject({ kind: 'done', record: { host: 'EDIT-BAY-1' } });
    expect((await b.take('a.mp4', 'k2', 0)).kind).toBe('taken');
  });

  it('a computer keying the file otherwise (full hash) still finds it done by its size and time', async () => {
    const clock = { t: T0 };
    const a = computer('EDIT-BAY-1', clock);
    const b = computer('EDIT-BAY-2', clock);
    const file = { size: 10, mtimeMs: 1_700_000_000_400 };
    await a.take('a.mp4', 'fast', 0, file);
    await a.release('a.mp4', { key: 'fast', size: 10, mtimeS: 1_700_000_000, state: 'completed' });
    expect((await b.take('a.mp4', 'full', 0, { size: 10, mtimeMs: 1_700_000_000_900 })).kind).toBe('done');
    expect((await b.take('a.mp4', 'full', 0, { size: 11, mtimeMs: 1_700_000_000_900 })).kind).toBe('taken');
  });
});
