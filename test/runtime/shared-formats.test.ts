// Team mode with different output settings on each computer for one shared folder: EDIT-BAY-1 writes
// {name}.json and a {name}.srt of 12-character lines; EDIT-BAY-2 asks for .json, a Streaming .srt and .vtt.
// - The done record on the share: EDIT-BAY-2 leaves the file alone (no second stream, no file of its own).
// - The done record lost (a restore, a clean-up): EDIT-BAY-2 sends the same stream id, meets the 409,
//   takes the completed stream (no second bill) and writes what it lacks (.vtt); the .srt the other
//   computer wrote stays as it is, with no `{name}.wav.srt` side copy beside it.
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeRepeatableToneWav } from '../helpers/media.js';
import { allStreams } from '../helpers/service.js';

const KEY = 'k';
let dir: string;
let share: string;
let sandbox: Sandbox;
const open: Runtime[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-shared-formats-'));
  share = path.join(dir, 'share');
  await mkdir(share);
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
});
afterEach(async () => {
  for (const rt of open.splice(0)) await rt.close().catch(() => undefined);
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function computer(name: string, output: Record<string, unknown>, said: string[] = []): Promise<Runtime> {
  const rt = await Runtime.open({
    stateDir: path.join(dir, `state-${name}`),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    ctx: { poll: { initialMs: 30, maxMs: 100, factor: 1.5, flatMs: 0 } },
    computerName: name,
  });
  open.push(rt);
  rt.on((e) => {
    if (e.type === 'folder:status' && e.message) said.push(e.message);
  });
  // The folder's own output settings, as each computer keeps them.
  const folder = WATCH_FOLDER.parse({ id: 'news', path: share, shared: true, claimTimeoutS: 30, output });
  await rt.updateSettings((s) => ({
    ...s,
    queue: { ...s.queue, settleMs: 200 },
    watchFolders: [folder],
  }));
  await rt.start({ watch: true });
  return rt;
}

const BAY1 = { formats: ['json', 'srt'], captions: { preset: 'custom', charsPerLine: 12, lines: 1 } };
const BAY2 = { formats: ['json', 'srt', 'vtt'] };
const listing = async (): Promise<string[]> => (await readdir(share)).filter((f) => f !== '.sluice').sort();

async function firstComputerDone(): Promise<{ srt: string; streams: number }> {
  await copyFile(await makeRepeatableToneWav(dir, 'tone.wav', 12), path.join(share, 'take.wav'));
  const bay1 = await computer('EDIT-BAY-1', BAY1);
  await expect.poll(() => bay1.queue.jobs().filter((j) => j.state === 'completed').length, { timeout: 20_000 }).toBe(1);
  await bay1.close();
  open.splice(open.indexOf(bay1), 1);
  expect(await listing()).toEqual(['take.json', 'take.srt', 'take.wav']);
  return {
    srt: await readFile(path.join(share, 'take.srt'), 'utf8'),
    streams: (await allStreams(sandbox.url, KEY)).length,
  };
}

it('the done record on the share: the second computer leaves the file alone, whatever its formats', async () => {
  const before = await firstComputerDone();
  const said: string[] = [];
  const bay2 = await computer('EDIT-BAY-2', BAY2, said);
  // The scan, the settle check and the claim ran: the share's done record turned the file away.
  await expect
    .poll(() => said.filter((m) => m.startsWith('take.wav: already processed on EDIT-BAY-1')), { timeout: 20_000 })
    .toHaveLength(1);
  expect(bay2.queue.jobs()).toEqual([]);
  expect(await listing()).toEqual(['take.json', 'take.srt', 'take.wav']);
  expect((await allStreams(sandbox.url, KEY)).length).toBe(before.streams);
}, 40_000);

it('the done record lost: the 409 hands over the finished stream, the missing format is written, no side copy', async () => {
  const before = await firstComputerDone();
  expect(before.streams).toBe(1);
  await rm(path.join(share, '.sluice'), { recursive: true });
  const bay2 = await computer('EDIT-BAY-2', BAY2);
  await expect.poll(() => bay2.queue.jobs().filter((j) => j.state === 'completed').length, { timeout: 20_000 }).toBe(1);
  const [job] = bay2.queue.jobs();
  // One stream, one bill: the same id was refused as reused and the completed stream taken.
  expect((await allStreams(sandbox.url, KEY)).length).toBe(1);
  expect(await listing()).toEqual(['take.json', 'take.srt', 'take.vtt', 'take.wav']);
  // The other computer's captions are kept as it wrote them.
  expect(await readFile(path.join(share, 'take.srt'), 'utf8')).toBe(before.srt);
  // …which differ from the ones this computer's settings make (else the test would prove nothing).
  expect(before.srt.split('\n').some((l) => l.length > 12 && !l.includes('-->'))).toBe(false);
  expect(job?.results.map((r) => r.format).sort()).toEqual(['json', 'vtt']);
}, 40_000);
