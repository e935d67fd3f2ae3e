// A media file that stops changing but is still not whole (a camera that stopped mid-recording:
// no `moov`) is said so after a while with no change, with what is wrong, and no longer shown as a
// copy that goes on; it is still taken at once when it changes. The while is the injected clock's.
import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { folder, recorder, tempDir, waitFor, type Recorder } from './watcher-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let r: Recorder | undefined;
const clock = { skew: 0 };

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('sluice-never-whole-'));
  clock.skew = 0;
});
afterEach(async () => {
  await r?.manager.close();
  await cleanup();
});

const box = (type: string, body: Buffer): Buffer => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const ftyp = box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2mp41', 'latin1'));

it('an MP4 with no moov is said never to be whole after 3 min unchanged, and taken at once when it changes', async () => {
  // Each look that finds it not whole sends it back to wait: counted, so the clock moves only after looks.
  let waits = 0;
  r = recorder({
    now: () => Date.now() + clock.skew,
    incompleteAfterMs: 180_000,
    settleMs: 100,
    onWaiting: () => void waits++,
  });
  const file = path.join(dir, 'GX010099.MP4');
  // Its media data is all there; the index a camera writes last is not.
  await writeFile(file, Buffer.concat([ftyp, box('mdat', Buffer.alloc(4000, 7))]));
  await r.manager.set([folder(dir)]);
  await waitFor(() => waits >= 2, 10_000, 'the file to be looked at and wait for its copy');
  expect(r.waiting.has(file)).toBe(true);
  expect(r.problems).toEqual([]);

  clock.skew += 179_000;
  const before = waits;
  // Still within the 3 minutes: looked at again, still a copy that may go on.
  await waitFor(() => waits >= before + 2, 10_000, 'the file to be looked at again');
  expect(r.waiting.has(file)).toBe(true);
  expect(r.problems).toEqual([]);

  clock.skew += 2_000;
  await waitFor(() => r!.problems.length > 0, 10_000, 'the file to be said never whole');
  expect(r.problems).toEqual([
    {
      folderId: 'f1',
      path: file,
      message:
        'unchanged for 3 min and not a complete MP4: no index (moov); the camera may have stopped mid-recording. It is taken at once if it changes.',
    },
  ]);
  expect(r.waiting.has(file)).toBe(false);
  expect(r.count(file)).toBe(0);

  // The rest arrives (a recovery tool wrote the index): taken at once, once.
  await appendFile(file, box('moov', box('mvhd', Buffer.alloc(100))));
  await r.manager.rescanNow();
  await waitFor(() => r!.count(file) === 1, 10_000, 'the whole file to be taken');
  expect(r.problems).toHaveLength(1);
});
