// Team mode: a clip processed by one computer and renamed on the share is not new to another
// computer, whether the first is running (it follows the rename and records the new name on the
// share) or stopped (the share's done record by content says the old name is gone). The first
// computer, started again, follows the rename and links its results to the clip where it is now.
// Two runtimes watch one temporary folder against the sandbox over loopback HTTP.
import { copyFile, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { EngineEvent } from '../../main/engine/events.js';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { currentPath } from '../../main/engine/source-path.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeToneWav } from '../helpers/media.js';
import { allStreams } from '../helpers/service.js';
import { until } from '../ipc/helpers.js';

const KEY = 'k';
let dir: string;
let share: string;
let sandbox: Sandbox;
const open: Runtime[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-shared-rename-'));
  share = path.join(dir, 'share');
  await mkdir(share);
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
});
afterEach(async () => {
  for (const rt of open.splice(0)) await rt.close().catch(() => undefined);
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** A computer watching the share; `said` collects what its watch folder says about files. */
async function computer(name: string, said: string[] = []): Promise<Runtime> {
  const rt = await Runtime.open({
    stateDir: path.join(dir, `state-${name}`),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    ctx: { poll: { initialMs: 30, maxMs: 100, factor: 1.5, flatMs: 0 } },
    computerName: name,
  });
  open.push(rt);
  const folder = WATCH_FOLDER.parse({
    id: 'news',
    path: share,
    shared: true,
    claimTimeoutS: 30,
    output: { formats: ['json', 'srt', 'fcpxml'] },
  });
  await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, settleMs: 200 }, watchFolders: [folder] }));
  rt.on((e: EngineEvent) => void (e.type === 'folder:status' && e.message && said.push(e.message)));
  await rt.start({ watch: true });
  return rt;
}

async function stop(rt: Runtime): Promise<void> {
  open.splice(open.indexOf(rt), 1);
  await rt.close();
}

it('a clip renamed on the share is not taken by the other computer, the first running or not', async () => {
  await copyFile(await makeToneWav(dir, 'tone.wav', 3), path.join(share, 'C0001.wav'));
  let bay1 = await computer('EDIT-BAY-1');
  await until(() => bay1.queue.jobs().find((j) => j.state === 'completed'), 30_000);
  const id = bay1.queue.jobs()[0]!.id;
  const bay2Said: string[] = [];
  const bay2 = await computer('EDIT-BAY-2', bay2Said);
  await until(() => bay2Said.some((m) => m.startsWith('C0001.wav: already processed on EDIT-BAY-1')), 30_000);

  // Renamed while the computer that processed it is stopped.
  await stop(bay1);
  await rename(path.join(share, 'C0001.wav'), path.join(share, 'C0001_Interview.wav'));
  await until(
    () =>
      bay2.queue.jobs().length > 0 ||
      bay2Said.find((m) => m.startsWith('C0001_Interview.wav: already processed on EDIT-BAY-1')),
    30_000,
  );
  expect(bay2.queue.jobs()).toEqual([]);
  expect(bay2Said).toContain('C0001_Interview.wav: already processed on EDIT-BAY-1 (as C0001.wav).');

  // Started again, it follows the rename: the results take the new name and link the clip there.
  bay1 = await computer('EDIT-BAY-1');
  await until(() => bay1.queue.job(id)?.movedTo === path.join(share, 'C0001_Interview.wav'), 30_000);
  await bay1.results.settled();

  // Moved into a subfolder while both run: the first follows it, the other leaves it.
  bay2Said.length = 0;
  await mkdir(path.join(share, 'Selects'));
  const now = path.join(share, 'Selects', 'C0001_Interview.wav');
  await rename(path.join(share, 'C0001_Interview.wav'), now);
  await until(() => bay1.queue.job(id) && currentPath(bay1.queue.job(id)!) === now, 30_000);
  await bay1.results.settled();
  await until(
    () => bay2.queue.jobs().length > 0 || bay2Said.find((m) => m.startsWith('C0001_Interview.wav: already processed')),
    30_000,
  );

  expect(bay2.queue.jobs()).toEqual([]);
  expect(await allStreams(sandbox.url, KEY)).toHaveLength(1);
  expect(bay1.queue.jobs()).toHaveLength(1);
  const fcpxml = bay1.queue.job(id)!.results.find((r) => r.format === 'fcpxml')!;
  expect(fcpxml.path).toBe(path.join(share, 'Selects', 'C0001_Interview.fcpxml'));
  const src = /\bsrc="(file:[^"]+)"/.exec(await readFile(fcpxml.path, 'utf8'))![1]!;
  expect(fileURLToPath(src)).toBe(now);
}, 120_000);
