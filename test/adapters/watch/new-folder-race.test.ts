// Files copied into a folder created a moment before: chokidar reads a new folder and only then
// sets its watch (paulmillr/chokidar#1471), so a file landing in between raised no event and waited
// for the periodic rescan (an hour here). The watcher reads a new folder again once its watch is
// set. Another process copies, as a card reader or a copy tool would.
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folder, recorder, tempDir, waitFor, type Recorder } from './watcher-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let r: Recorder | undefined;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('sluice-new-folder-'));
});
afterEach(async () => {
  await r?.manager.close();
  r = undefined;
  await cleanup();
});

/**
 * `folders` new folders, each made and then filled with `each` files as a copy tool does (a short
 * pause every few files), by another process: some land while chokidar is still reading the folder.
 */
function copyIn(root: string, folders: number, each: number): Promise<void> {
  const script = `const fs=require('fs'),path=require('path');const root=${JSON.stringify(root)};
    const pause=()=>new Promise((r)=>setTimeout(r,1));
    (async()=>{for(let f=0;f<${folders};f++){const d=path.join(root,'card-'+f);fs.mkdirSync(d);
    for(let i=0;i<${each};i++){fs.writeFileSync(path.join(d,'C'+String(i).padStart(4,'0')+'.MP4'),'x'.repeat(64));
    if(i%4===3)await pause();}}})();`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: 'inherit' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`copy exited with ${code}`))));
  });
}

describe('a folder created a moment before its files', () => {
  it('has all 1,000 files of 50 new folders reported without waiting for the periodic rescan', async () => {
    r = recorder({ settleMs: 200, rescanIntervalMs: 3_600_000 });
    await r.manager.set([folder(dir)]);
    await copyIn(dir, 50, 20);
    const n = 1000;
    await waitFor(() => r!.files.length >= n, 20_000, `${n} files (got ${r.files.length})`).catch(() => undefined);
    const missed = n - new Set(r.files.map((f) => f.path)).size;
    expect(missed).toBe(0);
    expect(r.files).toHaveLength(n);
  }, 60_000);
});
