// A stop (SIGTERM, the app quitting) during the first walk of a big folder ends the walk: closing
// does not wait behind the start that is walking, and the walk stops at the next folder it reads.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    let offered = 0;
    r = recorder({ settleMs: 60_000, events: false, onWaiting: () => void offered++ });
    const starting = r.manager.set([folder(dir)]);
    await waitFor(() => offered > 0, 30_000, 'the walk to begin');
    await r.manager.close();
    await starting;
    const seenAtClose = offered;
    // The walk had not reached the end (no "watching" with the folder's count) and does not go on.
    expect(r.statuses.some((s) => s.fileCount === dirs * each)).toBe(false);
    expect(seenAtClose).toBeLessThan(dirs * each);
    await new Promise((res) => setTimeout(res, 300));
    expect(offered).toBe(seenAtClose);
  }, 60_000);
});
