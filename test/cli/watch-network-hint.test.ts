// `sluice watch` on a folder on a network drive, without --shared, says in one line that other
// computers watching it need --shared; on a local disk, or with --shared, it says nothing of it.
// The network file system is stood in for by SLUICE_TEST_FS_TYPE (the adapter's test seam: NFS's
// statfs magic), since no network drive can be mounted here.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCli } from './run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;

beforeAll(async () => {
  buildCli();
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-net-hint-'));
  await mkdir(path.join(dir, 'news'));
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `sluice watch` until it is watching, stops it, and gives what it printed. */
async function watchOnce(name: string, extra: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin/sluice.js'),
      'watch',
      path.join(dir, 'news'),
      '--sandbox',
      '--state-dir',
      path.join(dir, `state-${name}`),
      ...extra,
    ],
    { env: { ...process.env, SLUICE_API_KEY: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const done = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const watching = new Promise<void>((resolve) => {
    const take = (d: Buffer): void => {
      out += d.toString();
      if (out.includes('Watching ')) resolve();
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
  });
  await Promise.race([watching, done]);
  child.kill('SIGTERM');
  await done;
  return out;
}

it('suggests --shared once for a folder on a network drive, and not otherwise', async () => {
  const nfs = await watchOnce('nfs', [], { SLUICE_TEST_FS_TYPE: '0x6969' });
  const lines = nfs.split('\n').filter((l) => l.includes('network drive'));
  expect(lines).toEqual([
    `${path.join(dir, 'news')} is on a network drive (NFS): if other computers watch it, add --shared on each.`,
  ]);
  expect(await watchOnce('shared', ['--shared'], { SLUICE_TEST_FS_TYPE: '0x6969' })).not.toContain('network drive');
  const local = await watchOnce('local', [], {});
  expect(local).toContain('Watching ');
  expect(local).not.toContain('network drive');
}, 90_000);
