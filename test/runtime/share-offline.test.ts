// Team mode when the share itself goes away (reliability-2026-12, defect 1): two computers (two
// runtimes, two state folders) share a folder of 24 files; mid-run the folder is moved away and
// comes back. Meanwhile nothing is made at its path, no job fails and the claims stay; once it is
// back, every file ends with its results there, once (one stream per file at the service), and no
// claim or temporary file is left. The outage as the claims see it (3 s, 8 s, 60 s, past the 5 s
// claim timeout) is the claims' clock moved on while the folder is away, not waited for.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { FolderStatus } from '../../main/engine/events.js';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { pcmWav } from '../helpers/media.js';
import { allStreams } from '../helpers/service.js';

const KEY = 'k';
const FILES = 24;
let dir: string;
let share: string;
let sandbox: Sandbox;
const open: Runtime[] = [];
/** The claims' clock: real time plus what the test moves it on by. */
const claimClock = { skew: 0 };

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-share-offline-'));
  share = path.join(dir, 'share');
  await mkdir(share);
  claimClock.skew = 0;
  // Each stream takes a while at the service, so the share leaves while work is in flight.
  sandbox = await startSandbox({ apiKey: KEY, fixedProcessingMs: 700 });
});
afterEach(async () => {
  for (const rt of open.splice(0)) await rt.close().catch(() => undefined);
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function computer(name: string, statuses: FolderStatus[]): Promise<Runtime> {
  const rt = await Runtime.open({
    stateDir: path.join(dir, `state-${name}`),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    ctx: { poll: { initialMs: 30, maxMs: 100, factor: 1.5, flatMs: 0 } },
    computerName: name,
    claimRefreshMs: 300,
    folderPollMs: 100,
    claimClock: () => Date.now() + claimClock.skew,
  });
  open.push(rt);
  rt.on((e) => e.type === 'folder:status' && statuses.push(e.status));
  const folder = WATCH_FOLDER.parse({ id: 'news', path: share, shared: true, claimTimeoutS: 5 });
  await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, settleMs: 150 }, watchFolders: [folder] }));
  await rt.start({ watch: true });
  return rt;
}

const name = (i: number): string => `clip-${String(i).padStart(2, '0')}`;
const withResults = async (): Promise<string[]> =>
  (await readdir(share).catch(() => [])).filter((f) => f.endsWith('.json')).sort();
/** Claims, done records' temporary files and result temporary files still in the share. */
async function leftovers(): Promise<string[]> {
  const claims = await readdir(path.join(share, '.sluice', 'claims')).catch(() => []);
  const done = (await readdir(path.join(share, '.sluice', 'done')).catch(() => [])).filter((f) => f.endsWith('.tmp'));
  const temps = (await readdir(share)).filter((f) => f.endsWith('.sluice-tmp'));
  return [...claims, ...done, ...temps];
}

it.each([3, 8, 60])(
  'a shared folder away for %i s is offline: nothing made at its path, every file done there once after',
  async (outageS) => {
    const seenA: FolderStatus[] = [];
    const seenB: FolderStatus[] = [];
    const a = await computer('EDIT-BAY-1', seenA);
    const b = await computer('EDIT-BAY-2', seenB);
    // Distinct bytes per file (a tone of its own), so each is its own work at the service.
    for (let i = 0; i < FILES; i++) {
      const wav = pcmWav(8000, { sample: (n) => Math.round(6000 * Math.sin((n * (i + 3)) / 40)) });
      await writeFile(path.join(share, `${name(i)}.wav`), wav);
    }
    await expect.poll(async () => (await withResults()).length, { timeout: 30_000, interval: 50 }).toBeGreaterThan(2);

    const away = path.join(dir, 'share-away');
    await rename(share, away);
    const jobs = (): ReturnType<Runtime['queue']['jobs']> => [...a.queue.jobs(), ...b.queue.jobs()];
    // Both computers see the folder offline; what was at the service when it left ends there, and
    // its results wait. At every look the folder's path is still not there.
    await expect
      .poll(
        async () => {
          expect(existsSync(share)).toBe(false);
          const atService = await allStreams(sandbox.url, KEY);
          const busy = jobs().filter((j) => j.state === 'uploading' || j.state === 'processing');
          return (
            seenA.includes('unavailable') &&
            seenB.includes('unavailable') &&
            busy.length === 0 &&
            atService.every((s) => s.state === 'COMPLETED')
          );
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBe(true);
    const waitingResults = jobs().filter((j) => j.state === 'exporting').length;
    // The outage as the claims see it: longer than the claim timeout for 8 s and 60 s.
    claimClock.skew += outageS * 1000;
    const streamsAway = (await allStreams(sandbox.url, KEY)).length;
    expect(existsSync(share)).toBe(false);
    expect(jobs().filter((j) => j.state === 'failed')).toEqual([]);

    await rename(away, share);
    const all = Array.from({ length: FILES }, (_, i) => `${name(i)}.json`);
    await expect.poll(withResults, { timeout: 60_000, interval: 100 }).toEqual(all);
    await expect.poll(leftovers, { timeout: 30_000, interval: 100 }).toEqual([]);
    await expect
      .poll(() => jobs().every((j) => j.state === 'completed' || j.state === 'canceled'), { timeout: 30_000 })
      .toBe(true);

    // One stream per file at the service, each completed: none billed twice.
    const streams = await allStreams(sandbox.url, KEY);
    const byName = new Map<string, number>();
    for (const s of streams) byName.set(s.name, (byName.get(s.name) ?? 0) + 1);
    expect([...byName.keys()].sort()).toEqual(all.map((f) => f.replace('.json', '.wav')));
    expect([...byName.values()].every((n) => n === 1)).toBe(true);
    expect(streams.every((s) => s.state === 'COMPLETED')).toBe(true);
    // Each file completed on one computer; none failed while its folder was away.
    const completed = jobs().filter((j) => j.state === 'completed');
    expect(new Set(completed.map((j) => path.basename(j.source.path))).size).toBe(FILES);
    expect(jobs().filter((j) => j.state === 'failed')).toEqual([]);
    // Work was caught by the outage (the test is about something): results that waited, or files held back.
    expect(waitingResults + (FILES - streamsAway)).toBeGreaterThan(0);
  },
  120_000,
);
