// What a failed clean-up or a kill leaves in a shared folder's `.sluice/` is swept: this computer's
// own leftovers at start, anyone's once seen unchanged for the claim timeout by the sweeper's own
// clock; a live claim (its refresh counter moving) and one held here stay. A folder that is away
// is neither swept nor made again. Claims are taken, refreshed and released under a missing root
// without making it.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { nodeClaimFs, type ClaimFs } from '../../../main/adapters/claims/claim-fs.js';
import { ClaimStore } from '../../../main/adapters/claims/claim-store.js';
import { ClaimSweep } from '../../../main/adapters/claims/claim-sweep.js';
import { FolderAwayError } from '../../../main/adapters/watch/folder/folder-root.js';

const TIMEOUT = 60_000;
const TOLERANCE = 5_000;
let dir: string;
let root: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sluice-sweep-'));
  root = path.join(dir, 'share');
  await mkdir(root);
  await writeFile(path.join(root, 'a.wav'), 'RIFF');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function computer(host: string, writer: string, clock: { t: number }, fs?: ClaimFs): ClaimStore {
  return new ClaimStore(root, {
    host,
    instance: `${host}-${clock.t}`,
    writer,
    timeoutMs: TIMEOUT,
    refreshMs: 10_000,
    toleranceMs: TOLERANCE,
    now: () => clock.t,
    ...(fs ? { fs } : {}),
  });
}

const claims = async (): Promise<string[]> => readdir(path.join(root, '.sluice', 'claims')).catch(() => []);
const doneDir = (): string => path.join(root, '.sluice', 'done');

it('this computer’s own leftovers go at start: a claim whose removal failed and a done record’s temporary file', async () => {
  const clock = { t: 1_000 };
  // The share refused to rename the claim aside when the file was done (unwritable for a moment).
  const refusing: ClaimFs = {
    ...nodeClaimFs,
    rename: (f, t) =>
      t.includes('.done-')
        ? Promise.reject(Object.assign(new Error('no'), { code: 'EACCES' }))
        : nodeClaimFs.rename(f, t),
  };
  const before = computer('EDIT-BAY-1', 'bay1', clock, refusing);
  await before.take('a.wav', 'k', 0);
  await before.release('a.wav', { key: 'k', state: 'completed' });
  expect(await claims()).toHaveLength(1);
  // A kill between a done record's write and its rename left its temporary file.
  await writeFile(path.join(doneDir(), 'x.json.bay1.5e1f.tmp'), '{"relPath":');

  // The same state folder started again: a new instance, the same writer tag.
  const after = computer('EDIT-BAY-1', 'bay1', { t: 2_000 });
  expect(await new ClaimSweep(after, nodeClaimFs, () => 2_000).run(true)).toBe(2);
  expect(await claims()).toEqual([]);
  expect((await readdir(doneDir())).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  // The done record itself stays: the file is still done.
  expect((await after.take('a.wav', 'k', 0)).kind).toBe('done');
});

it('another computer’s leftovers go once unchanged for the claim timeout by this clock; a live claim stays', async () => {
  const clock = { t: 1_000 };
  const dead = computer('EDIT-BAY-2', 'bay2', clock);
  const live = computer('EDIT-BAY-3', 'bay3', clock);
  const here = computer('EDIT-BAY-1', 'bay1', clock);
  await dead.take('dead.wav', 'k', 0);
  await live.take('live.wav', 'k', 0);
  await here.take('mine.wav', 'k', 0);
  // A kill of the other computer between a done record's write and its rename.
  await mkdir(doneDir());
  await writeFile(path.join(doneDir(), 'y.json.bay2.77aa.tmp'), '{');
  await mkdir(path.join(root, '.sluice', 'claims', 'abc.claim.stale-1234'));
  const sweep = new ClaimSweep(here, nodeClaimFs, () => clock.t);

  expect(await sweep.run(true)).toBe(0);
  clock.t += TIMEOUT + TOLERANCE - 1;
  await live.refresh('live.wav');
  expect(await sweep.run()).toBe(0);
  expect(await claims()).toHaveLength(4);

  clock.t += 1;
  await live.refresh('live.wav');
  // The dead claim, its done record's temporary file and the folder renamed aside go; the live and held claims stay.
  expect(await sweep.run()).toBe(3);
  expect((await claims()).sort()).toEqual(
    [here.claimDir('live.wav'), here.claimDir('mine.wav')].map((d) => path.basename(d)).sort(),
  );
  expect(await readdir(doneDir())).toEqual([]);
  expect(await live.refresh('live.wav')).toBe('ok');
  expect(await here.refresh('mine.wav')).toBe('ok');
});

it('a folder that is away is not swept, and claims under it make nothing: kept, then released when it is back', async () => {
  const clock = { t: 1_000 };
  const a = computer('EDIT-BAY-1', 'bay1', clock);
  await a.take('a.wav', 'k', 0);
  const away = path.join(dir, 'share-away');
  await rename(root, away);

  expect(await new ClaimSweep(a, nodeClaimFs, () => clock.t).run(true)).toBe(0);
  clock.t += 10 * TIMEOUT;
  expect(await a.refresh('a.wav')).toBe('ok');
  await expect(a.take('b.wav', 'k', 0)).rejects.toBeInstanceOf(FolderAwayError);
  await expect(a.release('a.wav', { key: 'k', state: 'completed' })).rejects.toBeInstanceOf(FolderAwayError);
  expect(existsSync(root)).toBe(false);
  expect(a.holds('a.wav')).toBe(true);

  // An empty folder at the path (a mount point left by an unmounted share) is away too.
  await mkdir(root);
  await expect(a.take('b.wav', 'k', 0)).rejects.toBeInstanceOf(FolderAwayError);
  expect(await readdir(root)).toEqual([]);
  await rm(root, { recursive: true });

  await rename(away, root);
  await a.release('a.wav', { key: 'k', state: 'completed' });
  expect(await claims()).toEqual([]);
  expect((await a.take('a.wav', 'k', 0)).kind).toBe('done');
});
