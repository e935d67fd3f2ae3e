// The Queue shows the files of a shared folder another computer is processing: read from the
// claims on the share, one group per computer, bounded, and gone once that computer is done.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ClaimStore } from '../../../main/adapters/claims/claim-store.js';
import { SharedFolders } from '../../../main/adapters/claims/shared-folders.js';
import { WATCH_FOLDER } from '../../../main/engine/settings.js';

let root: string;
let peers: SharedFolders | undefined;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'sluice-elsewhere-'));
});
afterEach(async () => {
  await peers?.stop();
  await rm(root, { recursive: true, force: true });
});

it('files claimed by another computer are listed by that computer, a few names each, until it is done', async () => {
  const folder = WATCH_FOLDER.parse({ id: 'news', path: root, shared: true, claimTimeoutS: 600 });
  const other = new ClaimStore(root, { host: 'EDIT-BAY-2', instance: 'bay2', timeoutMs: 600_000 });
  const files = [];
  for (let i = 0; i < 25; i++) {
    const p = path.join(root, `clip-${i}.wav`);
    await writeFile(p, `audio ${i}`);
    files.push({ path: p, size: 7, mtimeMs: 1_700_000_000_000 });
    await other.take(`clip-${i}.wav`, `key-${i}`, 0);
  }
  let changes = 0;
  peers = new SharedFolders({
    apply: () => undefined,
    jobs: () => [],
    folder: () => folder,
    retake: () => Promise.resolve(),
    host: 'EDIT-BAY-1',
    changed: () => changes++,
  });
  expect(peers.heldElsewhere()).toEqual([]);
  for (const f of files) {
    const got = await peers.claim(folder, f, { templateId: 't', params: {} });
    expect(got).toEqual({ ok: false, message: `${path.basename(f.path)}: processing on EDIT-BAY-2.` });
  }
  const [group, ...more] = peers.heldElsewhere(20);
  expect(more).toEqual([]);
  expect(group).toMatchObject({ folderId: 'news', folderPath: root, host: 'EDIT-BAY-2', count: 25 });
  expect(group?.paths).toHaveLength(20);
  expect(group?.paths[0]).toBe(files[0]?.path);
  expect(changes).toBe(25);

  // Seen held again: nothing changed, nothing sent.
  await peers.claim(folder, files[0]!, { templateId: 't', params: {} });
  expect(changes).toBe(25);

  // EDIT-BAY-2 finished the first file: it leaves the list.
  await other.release('clip-0.wav', { key: 'key-0', size: 7, mtimeS: 1_700_000_000, state: 'completed' });
  const again = await peers.claim(folder, files[0]!, { templateId: 't', params: {} });
  expect(again).toEqual({ ok: false, message: 'clip-0.wav: already processed on EDIT-BAY-2.' });
  expect(peers.heldElsewhere()[0]?.count).toBe(24);
  expect(changes).toBe(26);
});

it('a shared folder removed, paused or no longer shared shows nothing held elsewhere, and takes nothing of it later', async () => {
  const shared = WATCH_FOLDER.parse({ id: 'news', path: root, shared: true, claimTimeoutS: 600 });
  let saved: typeof shared | undefined = shared;
  const other = new ClaimStore(root, { host: 'EDIT-BAY-2', instance: 'bay2', timeoutMs: 600_000 });
  const file = { path: path.join(root, 'clip.wav'), size: 5, mtimeMs: 1_700_000_000_000 };
  await writeFile(file.path, 'audio');
  await other.take('clip.wav', 'key', 0);
  const retaken: string[] = [];
  let changes = 0;
  const what = { templateId: 't', params: {} };
  const held: SharedFolders = new SharedFolders({
    apply: () => undefined,
    jobs: () => [],
    folder: () => saved,
    // As the intake does: a file offered again is claimed again (and is held again).
    retake: (f, got): Promise<unknown> => {
      retaken.push(`${f.id}:${path.basename(got.path)}`);
      return held.claim(f, { ...got }, what);
    },
    host: 'EDIT-BAY-1',
    refreshMs: 50,
    changed: () => changes++,
  });
  peers = held;
  await held.claim(shared, file, what);
  // Each lease round offers it to the intake again, as the folder is saved; it stays held.
  await expect.poll(() => retaken.length, { timeout: 5000 }).toBeGreaterThan(1);
  expect(retaken[0]).toBe('news:clip.wav');
  expect(held.heldElsewhere()[0]?.count).toBe(1);

  for (const now of [
    { ...shared, enabled: false },
    { ...shared, shared: false },
    { ...shared, path: path.join(root, 'moved') },
  ]) {
    saved = now;
    // Gone from the Queue at once, before any lease round.
    expect(held.heldElsewhere()).toEqual([]);
  }
  saved = shared;
  expect(held.heldElsewhere()[0]?.count).toBe(1);

  // Removed: the next round offers it to no one and forgets it (said once to the Queue).
  saved = undefined;
  const offered = retaken.length;
  const said = changes;
  await expect.poll(() => changes, { timeout: 5000 }).toBe(said + 1);
  expect(retaken.length).toBe(offered);
  // Forgotten, not only hidden: the folder shared again finds its files as they are then.
  saved = shared;
  expect(held.heldElsewhere()).toEqual([]);
});
