// A watched folder's root is never made: folders are made only below a root that is there, and a
// root that is missing or empty (an unmounted share's mount point) reads as not present.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FolderAwayError, mkdirBelow, rootPresent } from '../../../../main/adapters/watch/folder/folder-root.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sluice-root-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('makes the folders below a root that is there, and never the root', async () => {
  const root = path.join(dir, 'share');
  await expect(mkdirBelow(root, path.join(root, 'Transcripts', 'Day1'))).rejects.toBeInstanceOf(FolderAwayError);
  expect(existsSync(root)).toBe(false);

  await mkdir(root);
  await mkdirBelow(root, path.join(root, 'Transcripts', 'Day1'));
  expect(existsSync(path.join(root, 'Transcripts', 'Day1'))).toBe(true);
  // Already there: nothing to do, no error.
  await mkdirBelow(root, path.join(root, 'Transcripts'));
  await expect(mkdirBelow(root, path.join(dir, 'elsewhere'))).rejects.toThrow('is not inside');
  expect(existsSync(path.join(dir, 'elsewhere'))).toBe(false);
});

it('a root is present when it is a folder holding something', async () => {
  const root = path.join(dir, 'share');
  expect(await rootPresent(root)).toBe(false);
  await mkdir(root);
  expect(await rootPresent(root)).toBe(false);
  await writeFile(path.join(root, 'a.wav'), 'RIFF');
  expect(await rootPresent(root)).toBe(true);
  expect(await rootPresent(path.join(root, 'a.wav'))).toBe(false);
});
