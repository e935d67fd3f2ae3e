// A temporary file whose removal failed is remembered and removed by a later sweep, not left in
// the user's folder for good. (As root, permissions refuse nothing: a folder standing where the
// file was makes the unlink fail instead.)
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, rmdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  claimTemps,
  leftoverTemps,
  removeTemp,
  sweepLeftoverTemps,
} from '../../../main/adapters/results/temp-leftovers.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sluice-leftovers-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('a temporary file that could not be removed is removed by the next sweep', async () => {
  const tmp = path.join(dir, '.clip.json.0a1b2c3d.sluice-tmp');
  await mkdir(tmp);
  await removeTemp(tmp);
  expect(leftoverTemps()).toContain(tmp);

  await rmdir(tmp);
  await writeFile(tmp, '{"half":');
  expect(await sweepLeftoverTemps()).toBeGreaterThanOrEqual(1);
  expect(existsSync(tmp)).toBe(false);
  expect(leftoverTemps()).not.toContain(tmp);
  // One already gone is simply forgotten.
  const gone = path.join(dir, '.gone.json.0a1b2c3d.sluice-tmp');
  await removeTemp(gone);
  expect(leftoverTemps()).not.toContain(gone);
});

it('a sweep leaves alone the file a write has under way under a leftover name, until the write is over', async () => {
  // A job's temporary names are fixed: its new write makes the file its failed one left behind.
  const tmp = path.join(dir, '.take.json.0a1b2c3d.sluice-tmp');
  await mkdir(tmp);
  await removeTemp(tmp);
  await rmdir(tmp);
  const release = claimTemps([tmp]);
  await writeFile(tmp, '{"whole":true}');
  await sweepLeftoverTemps();
  expect(existsSync(tmp)).toBe(true);
  release();
  // Still remembered: what a write leaves there goes at the next sweep.
  await sweepLeftoverTemps();
  expect(existsSync(tmp)).toBe(false);
});
