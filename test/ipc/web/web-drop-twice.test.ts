// The same file dropped twice into the browser is one job: the second drop is said to be the job
// already there, and its copy in the inbox is not kept (nothing would ever process or clear it).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEB, type AddOutcomeView } from '../../../preload/contract.js';
import { startWebBridge, type WebBridge } from '../../../main/ipc/web/web-bridge.js';
import { makeToneWav } from '../../helpers/media.js';
import { openEnv, until, type Env } from '../helpers.js';

let env: Env;
let web: WebBridge;

beforeEach(async () => {
  env = await openEnv();
  web = await startWebBridge(env.rt, env.platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
});
afterEach(async () => {
  await web.close();
  await env.close();
});

async function drop(files: Array<[string, Buffer]>): Promise<AddOutcomeView[]> {
  const form = new FormData();
  for (const [name, bytes] of files) form.append('files', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${web.url}${WEB.uploadPath.slice(1)}`, {
    method: 'POST',
    headers: { [WEB.tokenHeader]: web.token },
    body: form,
  });
  const r = (await res.json()) as { ok: boolean; value: AddOutcomeView[] };
  expect(r.ok).toBe(true);
  return r.value;
}

/** The inbox's folders that hold a copy of a dropped source. */
async function sourcesInInbox(name: string): Promise<string[]> {
  const inbox = path.join(env.stateDir, 'inbox');
  const out: string[] = [];
  for (const d of await readdir(inbox).catch(() => [] as string[])) {
    if ((await readdir(path.join(inbox, d)).catch(() => [] as string[])).includes(name)) out.push(d);
  }
  return out;
}

describe('a file dropped twice into the browser', () => {
  it('is one job whether dropped again later or twice in one drop; the second copy is not kept', async () => {
    const wav = await readFile(await makeToneWav(env.dir, 'src.wav', 2));
    const name = 'harbour interview A-cam.wav';
    const [first] = await drop([[name, wav]]);
    expect(first).toMatchObject({ outcome: 'added' });
    const jobId = (first as { jobId: string }).jobId;
    await until(() => env.rt.queue.job(jobId)?.state === 'completed', 30_000);

    const again = await drop([[name, wav]]);
    expect(again).toEqual([expect.objectContaining({ outcome: 'already-done', jobId })]);
    const both = await drop([
      [name, wav],
      [name, wav],
    ]);
    expect(both).toEqual([
      expect.objectContaining({ outcome: 'already-done', jobId }),
      expect.objectContaining({ outcome: 'already-done', jobId }),
    ]);
    expect(env.rt.queue.jobs()).toHaveLength(1);
    expect(await sourcesInInbox(name)).toEqual([path.basename(path.dirname(env.rt.queue.job(jobId)!.source.path))]);

    // A new file dropped twice in one drop, before the first is processed: one job too.
    const other = await readFile(await makeToneWav(env.dir, 'other.wav', 3));
    const pair = await drop([
      ['Zoom take 7.wav', other],
      ['Zoom take 7.wav', other],
    ]);
    expect(pair.map((o) => o.outcome)).toEqual(['added', 'already-queued']);
    expect((pair[1] as { jobId: string }).jobId).toBe((pair[0] as { jobId: string }).jobId);
    expect(await sourcesInInbox('Zoom take 7.wav')).toHaveLength(1);
    expect(env.rt.queue.jobs()).toHaveLength(2);
  }, 60_000);
});
