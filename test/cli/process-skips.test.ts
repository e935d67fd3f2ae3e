// `sluice process DIR` with a subfolder it may not read: the subfolder is reported with its reason
// and counted as not processed (exit 1), and the rest of the folder is processed. Permissions do
// not stop root, so as root the CLI runs as the unprivileged user `nobody`.
import { spawn } from 'node:child_process';
import { chmod, chown, copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli } from './run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KEY = 'process-skips-key';
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  // The CLI runs from the compiled output; make sure it is current.
  buildCli();
  dir = await makeMediaDir('sluice-process-skips-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  await chmod(path.join(dir, 'media', 'locked'), 0o755).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

async function chownTree(p: string, uid: number): Promise<void> {
  await chown(p, uid, uid);
  for (const e of await readdir(p, { withFileTypes: true })) {
    if (e.isDirectory()) await chownTree(path.join(p, e.name), uid);
    else await chown(path.join(p, e.name), uid, uid);
  }
}

describe('sluice process DIR with an unreadable subfolder', () => {
  it('reports it, counts it as not processed, processes the rest, exits 1', async () => {
    const media = path.join(dir, 'media');
    const locked = path.join(media, 'locked');
    await mkdir(locked, { recursive: true });
    const tone = await makeToneWav(dir, 'tone.wav', 1);
    await copyFile(tone, path.join(media, 'good.wav'));
    await copyFile(tone, path.join(locked, 'hidden.wav'));
    const stateDir = path.join(dir, 'state');
    if (isRoot) {
      await chmod(dir, 0o755);
      await chownTree(dir, NOBODY);
    }
    await chmod(locked, 0o000);
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [path.join(ROOT, 'bin/sluice.js'), 'process', media, '--state-dir', stateDir, '--base-url', sandbox.url],
        {
          env: { ...process.env, SLUICE_API_KEY: KEY, HOME: dir },
          stdio: ['ignore', 'pipe', 'pipe'],
          ...(isRoot ? { uid: NOBODY, gid: NOBODY } : {}),
        },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code) => resolve({ code, out }));
    });
    expect(r.out).toContain(`skipped: ${locked} cannot be read (permission denied); its files were not processed.`);
    expect(r.out).toContain('1 not processed: skipped for the reasons above.');
    expect(r.out).toMatch(/1 completed, 0 failed/);
    expect(r.code, r.out).toBe(1);
    expect(await readdir(media)).toContain('good.json');
  }, 60_000);
});
