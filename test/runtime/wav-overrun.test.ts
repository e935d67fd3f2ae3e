// A WAV (or RF64) followed by far more bytes than its header declares is not uploaded: refused with
// its reason when added by hand, failed with it before any byte is sent when a watch folder takes
// it. A few stray bytes after the audio (a recorder's trailing chunk) do not stop a file.
import { execFile } from 'node:child_process';
import { appendFile, copyFile, mkdir, rm, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RIFF_TRAILING_LIMIT, riffOverrun } from '../../main/engine/container-whole.js';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { closeRuntimes, openRuntime } from '../helpers/runtime.js';

const run = promisify(execFile);
const KEY = 'k';
let dir: string;
let sandbox: Sandbox;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-wav-overrun-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
});
afterEach(async () => {
  await closeRuntimes();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** The file grown to `extra` bytes past its end as a hole (sparse: nothing written to disk). */
async function trailing(file: string, extra: number): Promise<number> {
  const declared = (await stat(file)).size;
  await truncate(file, declared + extra);
  return declared;
}

describe('the rule', () => {
  it('refuses only a RIFF far longer than declared, and says by how much', () => {
    const riff = (declaredSize: number | null, fileSize: number) => ({ kind: 'riff', declaredSize, fileSize }) as const;
    expect(riffOverrun(riff(992, 1000))).toBeUndefined();
    expect(riffOverrun(riff(992, 1000 + RIFF_TRAILING_LIMIT))).toBeUndefined();
    expect(riffOverrun(riff(992, 1001 + RIFF_TRAILING_LIMIT))).toMatch(
      new RegExp(
        `declares 1000 bytes and the file has ${1001 + RIFF_TRAILING_LIMIT}: ${1 + RIFF_TRAILING_LIMIT} bytes after`,
      ),
    );
    // Unknown length (a writer that could not seek back), and other containers: not this rule's.
    expect(riffOverrun(riff(null, 10 ** 10))).toBeUndefined();
    expect(riffOverrun({ kind: 'other' })).toBeUndefined();
  });
});

describe('a WAV far longer than its header declares', () => {
  it('added by hand (WAV and RF64): refused with the reason, nothing sent; a few stray bytes are fine', async () => {
    const rt = await openRuntime({ stateDir: path.join(dir, 'state'), sandbox: { url: sandbox.url, apiKey: KEY } });
    const wav = await makeToneWav(dir, 'holey.wav', 1);
    const declared = await trailing(wav, 64 * 1024 * 1024);
    const rf64 = path.join(dir, 'holey-rf64.wav');
    await run('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=1', '-rf64', 'always', rf64]);
    await trailing(rf64, 64 * 1024 * 1024);
    const stray = await makeToneWav(dir, 'stray.wav', 1);
    await appendFile(stray, Buffer.alloc(4096, 0x41));

    const [a, b, c] = await rt.queue.addPaths([wav, rf64, stray]);
    expect(a).toMatchObject({
      outcome: 'rejected',
      message: expect.stringMatching(
        new RegExp(
          `^holey\\.wav is longer than its header says \\(its header declares ${declared} bytes and the file has ${declared + 64 * 1024 * 1024}`,
        ),
      ),
    });
    expect(b).toMatchObject({
      outcome: 'rejected',
      message: expect.stringMatching(/^holey-rf64\.wav is longer than its header says/),
    });
    expect(c).toMatchObject({ outcome: 'added' });
    await expect.poll(() => rt.queue.jobs().map((j) => j.state), { timeout: 15_000 }).toEqual(['completed']);
    expect(sandbox.stats().upload).toBe(1);
  });

  it('taken by a watch folder: failed with the reason before any byte is sent', async () => {
    const folder = path.join(dir, 'inbox');
    await mkdir(folder);
    const rt = await openRuntime({
      stateDir: path.join(dir, 'state'),
      sandbox: { url: sandbox.url, apiKey: KEY },
      start: false,
    });
    await rt.updateSettings((s) => ({
      ...s,
      queue: { ...s.queue, settleMs: 100 },
      watchFolders: [WATCH_FOLDER.parse({ id: 'w1', path: folder })],
    }));
    await rt.start({ watch: true });
    const made = await makeToneWav(dir, 'tone.wav', 1);
    await trailing(made, 64 * 1024 * 1024);
    await copyFile(made, path.join(folder, 'card.wav'));
    await expect.poll(() => rt.queue.jobs()[0]?.state, { timeout: 15_000 }).toBe('failed');
    const [job] = rt.queue.jobs();
    expect(job?.error?.message).toMatch(/^card\.wav is longer than its header says .*; nothing was uploaded\.$/);
    expect(sandbox.stats().upload ?? 0).toBe(0);
  });
});
