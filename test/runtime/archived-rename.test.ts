// Content identity reaches into the archive: a clip renamed after its finished job left the
// journal (dismissed, or past the Queue's keep time) is still one job, and its results follow the
// new name, instead of the clip being processed and billed again.
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { makeMp4 } from '../helpers/media.js';
import { until } from '../ipc/helpers.js';

let dir: string;
let sandbox: Sandbox;
const opened: Runtime[] = [];

async function open(): Promise<Runtime> {
  const rt = await Runtime.open({
    stateDir: path.join(dir, 'state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: 'k' },
    ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
    watchEvents: false,
  });
  opened.push(rt);
  await rt.start();
  return rt;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-archived-rename-'));
  sandbox = await startSandbox({ apiKey: 'k', speedFactor: 0.01 });
});
afterEach(async () => {
  for (const rt of opened.splice(0)) await rt.close().catch(() => undefined);
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a rename after the job was archived', () => {
  it('is recognised by its content: no new job, no new upload, the results follow', async () => {
    const clip = path.join(dir, 'CLIP');
    await mkdir(clip);
    const src = await makeMp4(clip, 'C0002.MP4', 2);
    let rt = await open();
    const [added] = await rt.queue.addPaths([src]);
    const id = added?.outcome === 'added' ? added.jobId : '';
    await until(() => rt.queue.job(id)?.state === 'completed');
    expect(rt.queue.dismiss(id)).toBe(true);
    await rt.close();

    rt = await open();
    expect(rt.store.isHot(id)).toBe(false);
    const uploads = sandbox.stats().upload;
    const renamed = path.join(clip, 'C0002_Mueller_Strassenumfrage.MP4');
    await rename(src, renamed);
    const [again] = await rt.queue.addPaths([renamed]);
    expect(again).toMatchObject({ outcome: 'already-done', jobId: id });
    expect(sandbox.stats().upload).toBe(uploads);
    expect((await readdir(clip)).sort()).toEqual([
      'C0002_Mueller_Strassenumfrage.MP4',
      'C0002_Mueller_Strassenumfrage.json',
      'C0002_Mueller_Strassenumfrage.srt',
      'C0002_Mueller_Strassenumfrage.txt',
      'C0002_Mueller_Strassenumfrage.vtt',
    ]);
    expect(rt.queue.job(id)).toMatchObject({ movedTo: renamed });
  }, 60_000);
});
