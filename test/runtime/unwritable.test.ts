// A result that cannot be written (read-only folder, full disk) does not fail the processing: the
// export is kept in the state dir, the job says why, and the results can be written later without
// processing again. Real conditions: a tmpfs mounted read-only or filled up (needs root, as in CI),
// or chmod for a normal user.
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobIds } from '../../main/adapters/queue/intake.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { DEFAULT_OUTPUT } from '../../main/engine/settings.js';

const DEFAULT_FORMATS = DEFAULT_OUTPUT.formats;

const KEY = 'k';
const isRoot = process.getuid?.() === 0;

function tryMount(dir: string, opts: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const canMount = (() => {
  if (!isRoot) return false;
  const probe = path.join('/tmp', `sluice-mount-probe-${process.pid}`);
  execFileSync('mkdir', ['-p', probe]);
  const ok = tryMount(probe, 'size=1m');
  if (ok) execFileSync('umount', [probe]);
  execFileSync('rmdir', [probe]);
  return ok;
})();

let dir: string;
let sandbox: Sandbox;
let rt: Runtime | undefined;
const mounts: string[] = [];

beforeEach(async () => {
  dir = await makeMediaDir('sluice-unwritable-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
  rt = await Runtime.open({
    stateDir: path.join(dir, 'state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    ctx: { poll: { initialMs: 30, maxMs: 100, factor: 1.5, flatMs: 0 } },
  });
  await rt.start();
});

afterEach(async () => {
  await rt?.close();
  for (const m of mounts.splice(0)) execFileSync('umount', ['-l', m], { stdio: 'ignore' });
  await sandbox.close();
  await chmod(dir, 0o755).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

/** A folder holding one media file, made unwritable by `lock`, writable again by `unlock`. */
async function lockedFolder(kind: 'read-only' | 'full'): Promise<{ file: string; unlock: () => Promise<void> }> {
  const folder = path.join(dir, 'media');
  await mkdir(folder);
  const tone = await makeToneWav(dir, 'tone.wav', 1);
  if (canMount) {
    if (!tryMount(folder, 'size=256k')) throw new Error('mount failed');
    mounts.push(folder);
    const file = path.join(folder, 'take.wav');
    await copyFile(tone, file);
    if (kind === 'read-only') execFileSync('mount', ['-o', 'remount,ro', folder]);
    else {
      // Fill what is left of the 256 KiB: the result cannot get a single block.
      await writeFile(path.join(folder, 'filler.bin'), Buffer.alloc(200 * 1024)).catch(() => undefined);
      await writeFile(path.join(folder, 'filler2.bin'), Buffer.alloc(64 * 1024)).catch(() => undefined);
    }
    return {
      file,
      unlock: async () => {
        if (kind === 'read-only') execFileSync('mount', ['-o', 'remount,rw', folder]);
        else await rm(path.join(folder, 'filler.bin'), { force: true });
      },
    };
  }
  const file = path.join(folder, 'take.wav');
  await copyFile(tone, file);
  await chmod(folder, 0o555);
  return { file, unlock: () => chmod(folder, 0o755) };
}

describe('results that cannot be written', () => {
  it.skipIf(!canMount && isRoot)('read-only folder: completed with a warning, export kept, written later', async () => {
    const { file, unlock } = await lockedFolder('read-only');
    const [job] = await rt!.queue.whenSettled(jobIds(await rt!.queue.addPaths([file])));
    expect(job?.state).toBe('completed');
    expect(job?.resultWarning).toMatch(/read-only|not writable/);
    expect(job?.results).toEqual([]);
    const kept = path.join(dir, 'state', 'exports', `${job!.id}.json`);
    expect(JSON.parse(await readFile(kept, 'utf8'))).toHaveProperty('transcription');
    const uploads = sandbox.stats().upload;
    await unlock();
    await rt!.results.writeAgain(job!.id);
    await expect.poll(() => rt!.queue.job(job!.id)?.results.length).toBe(DEFAULT_FORMATS.length);
    expect(rt!.queue.job(job!.id)?.resultWarning).toBeUndefined();
    expect(await readFile(path.join(path.dirname(file), 'take.json'), 'utf8')).toBe(await readFile(kept, 'utf8'));
    expect(sandbox.stats().upload).toBe(uploads);
  });

  it.skipIf(!canMount)('full disk: completed with a warning that says so, nothing half-written', async () => {
    const { file, unlock } = await lockedFolder('full');
    const [job] = await rt!.queue.whenSettled(jobIds(await rt!.queue.addPaths([file])));
    expect(job?.state).toBe('completed');
    expect(job?.resultWarning).toMatch(/full/);
    const leftovers = execFileSync('ls', ['-a', path.dirname(file)]).toString();
    expect(leftovers).not.toMatch(/sluice-tmp|take\.json/);
    await unlock();
    await rt!.results.writeAgain(job!.id);
    await expect.poll(() => rt!.queue.job(job!.id)?.results.length).toBe(DEFAULT_FORMATS.length);
  });
});
