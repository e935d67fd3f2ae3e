import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folder, lastState, recorder, tempDir, waitFor, type Recorder } from './watcher-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let r: Recorder | undefined;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await r?.manager.close();
  r = undefined;
  await cleanup();
});

describe('WatchManager', () => {
  it('adds, updates and removes folders without a restart', async () => {
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    await mkdir(a);
    await mkdir(b);
    r = recorder();
    await r.manager.set([folder(a, {}, 'A'), folder(b, {}, 'B')]);
    await writeFile(path.join(a, '1.mp4'), 'x');
    await writeFile(path.join(b, '2.mp4'), 'x');
    await waitFor(() => r!.files.length === 2);
    expect(r.files.map((f) => `${f.folderId}:${path.basename(f.path)}`).sort()).toEqual(['A:1.mp4', 'B:2.mp4']);

    // A template change does not touch the watcher: no re-walk, no repeat.
    const scansBefore = r.statuses.filter((s) => s.state === 'scanning').length;
    await r.manager.set([folder(a, { templateId: 'a'.repeat(24) }, 'A'), folder(b, {}, 'B')]);
    expect(r.statuses.filter((s) => s.state === 'scanning').length).toBe(scansBefore);

    // A filter change applies at once; B removed stops reporting.
    await r.manager.set([folder(a, { include: ['*.wav'] }, 'A')]);
    await writeFile(path.join(a, '3.mp4'), 'x');
    await writeFile(path.join(a, '4.wav'), 'x');
    await writeFile(path.join(b, '5.mp4'), 'x');
    await waitFor(() => r!.files.some((f) => f.path.endsWith('4.wav')));
    // A walk of A and every file seen judged: a 3.mp4 let through (or a 5.mp4 from B) would be reported by now.
    await r.quiet();
    const names = r.files.map((f) => path.basename(f.path));
    expect(names).not.toContain('3.mp4');
    expect(names).not.toContain('5.mp4');
    expect(r.manager.statuses().map((s) => s.folderId)).toEqual(['A']);
  });

  it('a disabled folder is paused and reports nothing until enabled', async () => {
    const off = path.join(dir, 'off');
    const live = path.join(dir, 'live');
    await mkdir(off);
    await mkdir(live);
    const liveFolder = folder(live, {}, 'f2');
    r = recorder();
    await r.manager.set([folder(off, { enabled: false }), liveFolder]);
    expect(lastState(r)).toBe('paused');
    expect(r.statuses.filter((s) => s.folderId === 'f1').at(-1)!.message).toMatch(/turned off/i);
    await writeFile(path.join(off, 'x.mp4'), 'x');
    // A file written after it in a folder that is watched: once that one is taken and every file
    // seen is judged, the disabled folder's would have been reported too.
    await writeFile(path.join(live, 'meanwhile.mp4'), 'x');
    await waitFor(() => r!.files.length === 1, 5000, "the watched folder's file");
    await r.quiet();
    expect(r.files.map((f) => path.basename(f.path))).toEqual(['meanwhile.mp4']);
    await r.manager.set([folder(off, { enabled: true }), liveFolder]);
    await waitFor(() => r!.files.length === 2);
    expect(r.files.at(-1)!.path).toBe(path.join(off, 'x.mp4'));
    expect(lastState(r)).toBe('watching');
  });

  it('a user pause survives a settings save', async () => {
    const paused = path.join(dir, 'paused');
    const live = path.join(dir, 'live');
    await mkdir(paused);
    await mkdir(live);
    const liveFolder = folder(live, {}, 'f2');
    r = recorder();
    await r.manager.set([folder(paused), liveFolder]);
    await r.manager.pause('f1');
    await r.manager.set([folder(paused, { params: { language: 'de' } }), liveFolder]);
    expect(lastState(r)).toBe('paused');
    await writeFile(path.join(paused, 'x.mp4'), 'x');
    // As above: the watched folder's later file taken and every file seen judged.
    await writeFile(path.join(live, 'meanwhile.mp4'), 'x');
    await waitFor(() => r!.files.length === 1, 5000, "the watched folder's file");
    await r.quiet();
    expect(r.files.map((f) => path.basename(f.path))).toEqual(['meanwhile.mp4']);
    await r.manager.resume('f1');
    await waitFor(() => r!.files.length === 2);
    expect(r.files.at(-1)!.path).toBe(path.join(paused, 'x.mp4'));
  });

  it('reports status with a file count, and close() stops everything', async () => {
    await writeFile(path.join(dir, 'a.mp4'), 'x');
    await writeFile(path.join(dir, 'b.mp4'), 'x');
    r = recorder();
    await r.manager.set([folder(dir)]);
    const st = r.manager.statuses()[0]!;
    expect(st).toMatchObject({ folderId: 'f1', state: 'watching', fileCount: 2 });
    await waitFor(() => r!.files.length === 2);
    // A second manager on the same folder, still open: when it has taken c.mp4 by its events, the
    // closed one would have seen the same events.
    const witness = recorder();
    try {
      await witness.manager.set([folder(dir)]);
      await waitFor(() => witness.files.length === 2, 5000, 'the second manager to take the files there');
      await r.manager.close();
      await writeFile(path.join(dir, 'c.mp4'), 'x');
      await waitFor(() => witness.count(path.join(dir, 'c.mp4')) === 1, 5000, 'the second manager to take c.mp4');
      await witness.quiet();
      expect(r.files).toHaveLength(2);
    } finally {
      await witness.manager.close();
    }
  });
});
