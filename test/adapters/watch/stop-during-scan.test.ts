// A stop (SIGTERM, the app quitting) during the first walk of a big folder ends the walk: closing
// does not wait behind the start that is walking, and the walk stops at the next folder it reads.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderFileSystem } from '../../../main/adapters/watch/folder/file-system-kind.js';
import { folder, recorder, tempDir, waitFor, type Recorder } from './watcher-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let r: Recorder | undefined;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('sluice-stop-scan-'));
});
afterEach(async () => {
  await r?.manager.close();
  r = undefined;
  await cleanup();
});

describe('a stop during the first walk', () => {
  it('ends the walk part-way instead of walking the whole folder first', async () => {
    const dirs = 400;
    const each = 50;
    for (let d = 0; d < dirs; d++) {
      const sub = path.join(dir, `roll-${d}`);
      mkdirSync(sub);
      for (let i = 0; i < each; i++) writeFileSync(path.join(sub, `C${i}.MP4`), 'x');
    }
    // How long a whole first walk of this folder takes here, to the folder's count.
    const whole = recorder({ settleMs: 60_000, events: false });
    const began = performance.now();
    await whole.manager.set([folder(dir)]);
    await waitFor(() => whole.statuses.some((s) => s.fileCount === dirs * each), 30_000, 'a whole walk');
    const walkMs = performance.now() - began;
    await whole.manager.close();

    let offered = 0;
    let closing: Promise<number> | undefined;
    r = recorder({
      settleMs: 60_000,
      events: false,
      onWaiting: () => void offered++,
      // The walk starts as the folder's file system is known: the stop comes right behind it. (Its
      // names reach their looks only once the read-ahead has judged the first batch, read-ahead.ts,
      // so a first look is no sign the walk is still going.)
      fileSystem: async (d) => {
        const kind = await folderFileSystem(d);
        setImmediate(() => {
          const asked = performance.now();
          closing = r!.manager.close().then(() => performance.now() - asked);
        });
        return kind;
      },
    });
    const starting = r.manager.set([folder(dir)]);
    await waitFor(() => closing !== undefined, 30_000, 'the walk to begin');
    const closeMs = await closing!;
    await starting;
    // The stop did not wait for the walk to go through the folder (with the walk not told to end,
    // it waited for the rest of it: about a third of a whole walk, against 2 ms; here a tenth at most).
    expect(closeMs).toBeLessThan(walkMs / 10);
    // The walk had not reached the end (no "watching" with the folder's count) and does not go on.
    expect(r.statuses.some((s) => s.fileCount === dirs * each)).toBe(false);
    const seenAtClose = offered;
    await new Promise((res) => setTimeout(res, 300));
    expect(offered).toBe(seenAtClose);
  }, 60_000);
});
