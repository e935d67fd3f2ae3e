// A folder added by hand reports what it could not take, with the reason, instead of skipping it
// silently: a subfolder that cannot be read, a path too long to open, a name that is not UTF-8.
// Real conditions on a real file system; the service is the sandbox over loopback HTTP.
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AddOutcome } from '../../main/adapters/queue/intake.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';

const KEY = 'k';
const isRoot = process.getuid?.() === 0;

let dir: string;
let media: string;
let tone: string;
let sandbox: Sandbox;
let rt: Runtime;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-skipped-');
  media = path.join(dir, 'media');
  await mkdir(media);
  tone = await makeToneWav(dir, 'tone.wav', 1);
  await copyFile(tone, path.join(media, 'good.wav'));
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
  rt = await Runtime.open({
    stateDir: path.join(dir, 'state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
  });
});

afterEach(async () => {
  await rt.close();
  await sandbox.close();
  // GNU rm walks paths longer than PATH_MAX; fs.rm does not.
  execFileSync('chmod', ['-R', 'u+rwx', dir]);
  execFileSync('rm', ['-rf', dir]);
});

const rejected = (outcomes: AddOutcome[]): string[] =>
  outcomes.flatMap((o) => (o.outcome === 'rejected' ? [o.message] : []));
const added = (outcomes: AddOutcome[]): string[] =>
  outcomes.flatMap((o) => (o.outcome === 'added' ? [path.relative(media, o.path)] : []));

describe('process DIR: nothing skipped silently', () => {
  it('a name that is not valid UTF-8 is refused for that reason, never as "does not exist"', async () => {
    // Linux allows any bytes but '/' and NUL in a name: `caf\xe9.wav` is Latin-1, not UTF-8.
    const bad = Buffer.concat([Buffer.from(`${media}/caf`), Buffer.from([0xe9]), Buffer.from('.wav')]);
    await copyFile(tone, bad);
    const badDir = Buffer.concat([Buffer.from(`${media}/d`), Buffer.from([0xff])]);
    await mkdir(badDir);
    await copyFile(tone, Buffer.concat([badDir, Buffer.from('/inside.wav')]));
    const outcomes = await rt.queue.addPaths([media]);
    expect(added(outcomes)).toEqual(['good.wav']);
    const reasons = rejected(outcomes);
    expect(reasons).toEqual([
      `${media}/caf\\xe9.wav: the file's name is not valid UTF-8, so it cannot be opened by name; rename it to process it.`,
      `${media}/d\\xff: the folder's name is not valid UTF-8, so it cannot be opened by name; rename it to process its files.`,
    ]);
    // Given by name (the terminal turns the byte into U+FFFD on the way in): the reason is the name.
    const [given] = rejected(await rt.queue.addPaths([`${media}/caf\uFFFD.wav`]));
    expect(given).toMatch(/not valid UTF-8/);
    expect(given).not.toMatch(/does not exist/);
  });

  it('a path too long to open is reported and counted, the rest is processed', async () => {
    // 20 nested folders of 250 bytes: 5,000+ bytes, past PATH_MAX (4,096); made with relative cds.
    const seg = 'x'.repeat(250);
    execFileSync('bash', [
      '-c',
      `cd "$1" && for i in $(seq 20); do mkdir ${seg} && cd ${seg}; done && cp "$2" deep.wav`,
      '_',
      media,
      tone,
    ]);
    const outcomes = await rt.queue.addPaths([media]);
    expect(added(outcomes)).toEqual(['good.wav']);
    const reasons = rejected(outcomes);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/has a path too long to open; its files were not processed\.$/);
  });

  it.skipIf(isRoot)('an unreadable subfolder is reported and counted, the rest is processed', async () => {
    const locked = path.join(media, 'locked');
    await mkdir(locked);
    await writeFile(path.join(locked, 'hidden.wav'), 'x');
    await chmod(locked, 0o000);
    const outcomes = await rt.queue.addPaths([media]);
    expect(added(outcomes)).toEqual(['good.wav']);
    expect(rejected(outcomes)).toEqual([`${locked} cannot be read (permission denied); its files were not processed.`]);
  });
});
