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
