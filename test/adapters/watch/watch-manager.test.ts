import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folder, lastState, recorder, sleep, tempDir, waitFor, type Recorder } from './watcher-helpers.js';

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
    await sleep(500);
    const names = r.files.map((f) => path.basename(f.path));
    expect(names).not.toContain('3.mp4');
    expect(names).not.toContain('5.mp4');
    expect(r.manager.statuses().map((s) => s.folderId)).toEqual(['A']);
  });

  it('a disabled folder is paused and reports nothing until enabled', async () => {
    r = recorder();
    await r.manager.set([folder(dir, { enabled: false })]);
    expect(lastState(r)).toBe('paused');
    expect(r.statuses.at(-1)!.message).toMatch(/turned off/i);
    await writeFile(path.join(dir, 'x.mp4'), 'x');
    await sleep(500);
    expect(r.files).toHaveLength(0);
    await r.manager.set([folder(dir, { enabled: true })]);
    await waitFor(() => r!.files.length === 1);
    expect(lastState(r)).toBe('watching');
  });

  it('a user pause survives a settings save', async () => {
    r = recorder();
    await r.manager.set([folder(dir)]);
    await r.manager.pause('f1');
    await r.manager.set([folder(dir, { params: { language: 'de' } })]);
    expect(lastState(r)).toBe('paused');
    await writeFile(path.join(dir, 'x.mp4'), 'x');
    await sleep(500);
    expect(r.files).toHaveLength(0);
    await r.manager.resume('f1');
    await waitFor(() => r!.files.length === 1);
  });

  it('reports status with a file count, and close() stops everything', async () => {
    await writeFile(path.join(dir, 'a.mp4'), 'x');
    await writeFile(path.join(dir, 'b.mp4'), 'x');
    r = recorder();
    await r.manager.set([folder(dir)]);
    const st = r.manager.statuses()[0]!;
    expect(st).toMatchObject({ folderId: 'f1', state: 'watching', fileCount: 2 });
    await waitFor(() => r!.files.length === 2);
    await r.manager.close();
    await writeFile(path.join(dir, 'c.mp4'), 'x');
    await sleep(500);
    expect(r.files).toHaveLength(2);
  });
});
