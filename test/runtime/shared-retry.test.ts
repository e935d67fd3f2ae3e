// A failed job of a folder shared with other computers, retried by hand, takes its claim on the
// share again before it uploads: refused in words while another computer holds the file, and then,
// once the claim is free, processed under the claim it took (one more stream, never two).
// Two engines watch one temporary folder against the sandbox over HTTP.
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ClaimStore } from '../../main/adapters/claims/claim-store.js';
import { RetryRefused } from '../../main/runtime/queue-commands.js';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { allStreams } from '../helpers/service.js';
import { makeToneWav } from '../helpers/media.js';

const KEY = 'k';
let dir: string;
let sandbox: Sandbox;
const runtimes: Runtime[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-shared-retry-'));
  // The first stream fails in processing: the file's job ends failed on whichever computer took it.
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02, faults: { processingFailure: { next: 1 } } });
});
afterEach(async () => {
  for (const rt of runtimes.splice(0)) await rt.close().catch(() => undefined);
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function engine(name: string, share: string): Promise<Runtime> {
  const rt = await Runtime.open({
    stateDir: path.join(dir, `state-${name}`),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    ctx: { poll: { initialMs: 30, maxMs: 100, factor: 1.5, flatMs: 0 } },
  });
  runtimes.push(rt);
  const folder = WATCH_FOLDER.parse({ id: 'news', path: share, shared: true, claimTimeoutS: 600 });
  await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, settleMs: 200 }, watchFolders: [folder] }));
  await rt.start({ watch: true });
  return rt;
}

it('a failed shared job retried by hand takes the claim again, or is refused while another computer holds it', async () => {
  const share = path.join(dir, 'share');
  await mkdir(share);
  const a = await engine('a', share);
  const b = await engine('b', share);
  await copyFile(await makeToneWav(dir, 'tone.wav', 1), path.join(share, 'take-1.wav'));

  const failedOn = async (): Promise<Runtime | undefined> =>
    [a, b].find((rt) => rt.queue.jobs().some((j) => j.state === 'failed'));
  await expect.poll(failedOn, { timeout: 20_000 }).toBeDefined();
  const owner = (await failedOn())!;
  const other = owner === a ? b : a;
  const job = owner.queue.jobs().find((j) => j.state === 'failed')!;
  expect(job.shared?.relPath).toBe('take-1.wav');
  // The other engine never made a job of the file: it was claimed, then recorded as ended.
  expect(other.queue.jobs()).toEqual([]);
  expect((await allStreams(sandbox.url, KEY)).map((s) => s.state)).toEqual(['FAILED']);

  // A third computer holds the file now: the retry is refused in words and changes nothing.
  const bay3 = new ClaimStore(share, { host: 'EDIT-BAY-3', instance: 'bay3', timeoutMs: 600_000 });
  // (The owner lets its claim go just after the job ends.)
  await expect
    .poll(async () => (await bay3.take('take-1.wav', job.shared!.key, 1, undefined, { again: true })).kind)
    .toBe('taken');
  const refused = await owner.queue.retry(job.id).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(RetryRefused);
  expect((refused as Error).message).toBe(
    'take-1.wav: processing on EDIT-BAY-3, which holds the file in the shared folder; not retried.',
  );
  expect(owner.queue.job(job.id)?.state).toBe('failed');
  // The scheduler's next look (it runs on the next turn of the event loop) starts nothing either.
  await new Promise((r) => setImmediate(r));
  expect(owner.queue.jobs().map((j) => j.state)).toEqual(['failed']);
  expect(await allStreams(sandbox.url, KEY)).toHaveLength(1);

  // It let go without finishing: the retry takes the claim, and the job runs under it.
  await bay3.release('take-1.wav');
  const retried = await owner.queue.retry(job.id);
  expect(retried?.state).toBe('queued');
  expect(retried?.shared?.attempt).toBe(1);
  expect(retried?.shared?.token).not.toBe(job.shared?.token);
  const onShare = JSON.parse(await readFile(path.join(bay3.claimDir('take-1.wav'), 'owner.json'), 'utf8')) as {
    token: string;
    host: string;
  };
  expect(onShare).toMatchObject({ token: retried?.shared?.token, host: owner.claims.host });

  await expect.poll(() => owner.queue.job(job.id)?.state, { timeout: 20_000 }).toBe('completed');
  const streams = await allStreams(sandbox.url, KEY);
  expect(streams.map((s) => s.state).sort()).toEqual(['COMPLETED', 'FAILED']);
  expect(other.queue.jobs()).toEqual([]);

  // Completed now: retried again by hand after a cancel elsewhere would bill twice, so the share says no.
  // The owner writes its done record on the share just after the job ends (before its claim goes,
  // so the file is never free in between): until then the share says the file is held.
  const again = (): ReturnType<ClaimStore['take']> =>
    bay3.take('take-1.wav', job.shared!.key, 2, undefined, { again: true });
  await expect.poll(async () => (await again()).kind).toBe('done');
  expect(await again()).toMatchObject({
    kind: 'done',
    record: { host: owner.claims.host, state: 'completed' },
  });
}, 60_000);
