// A completed file renamed on a shared folder: the share's done record by content finds it under
// its new name (old name gone: renamed; both there under other names: a copy made on purpose), and
// the computer that follows the rename records the new name. Real files in a temporary folder.
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaimStore } from '../../../main/adapters/claims/claim-store.js';
import { doneUnderAnotherName, recordMove } from '../../../main/adapters/claims/renamed-on-share.js';
import { createJob, type JobRecord } from '../../../main/engine/job.js';

let root: string;
const HASH = 'fp1:0123abcd';

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'sluice-renamed-share-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const store = (host: string): ClaimStore => new ClaimStore(root, { host, instance: `${host}-1`, timeoutMs: 60_000 });

/** EDIT-BAY-1 processed `day1/C0001.MP4` (8 bytes) and let its claim go with a done record. */
async function doneOnBay1(state = 'completed'): Promise<{ size: number; mtimeMs: number }> {
  await mkdir(path.join(root, 'day1'));
  await writeFile(path.join(root, 'day1', 'C0001.MP4'), '12345678');
  const bay1 = store('EDIT-BAY-1');
  const taken = await bay1.take('day1/C0001.MP4', 'k', 0);
  expect(taken.kind).toBe('taken');
  await bay1.release('day1/C0001.MP4', { key: 'k', size: 8, mtimeS: 1, state, streamId: 's1', contentHash: HASH });
  return { size: 8, mtimeMs: 1000 };
}

const seen = (rel: string, contentHash: string | undefined = HASH) => ({
  path: path.join(root, ...rel.split('/')),
  size: 8,
  mtimeMs: 1000,
  ...(contentHash ? { contentHash } : {}),
});

describe('a completed file under another name on the share', () => {
  it('renamed (the old name gone): done, with where it was done', async () => {
    await doneOnBay1();
    await rename(path.join(root, 'day1', 'C0001.MP4'), path.join(root, 'day1', 'C0001_Hafen.MP4'));
    const done = await doneUnderAnotherName(
      root,
      store('EDIT-BAY-2'),
      'day1/C0001_Hafen.MP4',
      seen('day1/C0001_Hafen.MP4'),
    );
    expect(done).toMatchObject({ host: 'EDIT-BAY-1', relPath: 'day1/C0001.MP4', streamId: 's1' });
  });

  it('a copy beside the first under another name: not done (made on purpose)', async () => {
    await doneOnBay1();
    await writeFile(path.join(root, 'day1', 'C0001 copy.MP4'), '12345678');
    expect(
      await doneUnderAnotherName(root, store('EDIT-BAY-2'), 'day1/C0001 copy.MP4', seen('day1/C0001 copy.MP4')),
    ).toBeUndefined();
  });

  it('the same name in a second card folder, the first still there: done (a card copied twice)', async () => {
    await doneOnBay1();
    const done = await doneUnderAnotherName(root, store('EDIT-BAY-2'), 'backup/C0001.MP4', seen('backup/C0001.MP4'));
    expect(done?.relPath).toBe('day1/C0001.MP4');
  });

  it('nothing by content for a failed file, other bytes, or a file not fingerprinted', async () => {
    await doneOnBay1('failed');
    await rename(path.join(root, 'day1', 'C0001.MP4'), path.join(root, 'day1', 'C0001_Hafen.MP4'));
    const bay2 = store('EDIT-BAY-2');
    expect(
      await doneUnderAnotherName(root, bay2, 'day1/C0001_Hafen.MP4', seen('day1/C0001_Hafen.MP4')),
    ).toBeUndefined();
    expect(
      await doneUnderAnotherName(root, bay2, 'day1/C0001_Hafen.MP4', seen('day1/C0001_Hafen.MP4', 'fp1:ffff')),
    ).toBeUndefined();
    expect(
      await doneUnderAnotherName(root, bay2, 'day1/C0001_Hafen.MP4', seen('day1/C0001_Hafen.MP4', undefined)),
    ).toBeUndefined();
  });

  it('the rename followed: done under the new name for any key, and the content record names it', async () => {
    const file = await doneOnBay1();
    const job: JobRecord = {
      ...createJob(
        {
          id: 'j1',
          source: { path: path.join(root, 'day1', 'C0001.MP4'), ...file, contentHash: HASH },
          origin: { kind: 'watch', folderId: 'news' },
          seq: 1,
          templateId: 't',
          params: {},
        },
        1,
      ),
      state: 'completed',
      streamId: 's1',
      movedTo: path.join(root, 'Selects', 'C0001_Hafen.MP4'),
    };
    await recordMove(root, store('EDIT-BAY-1'), job);
    const bay2 = store('EDIT-BAY-2');
    // Another computer's key differs (its own template): the size and time still say it is done.
    expect(await bay2.take('Selects/C0001_Hafen.MP4', 'other key', 0, file)).toMatchObject({
      kind: 'done',
      record: { host: 'EDIT-BAY-1', streamId: 's1' },
    });
    expect(await bay2.readDoneByContent(HASH)).toMatchObject({ relPath: 'Selects/C0001_Hafen.MP4' });
  });
});
