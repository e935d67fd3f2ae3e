// A state folder on a full disk when Sluice starts: the error names the folder and what to do, not
// a bare `ENOSPC: no space left on device, write`; once space is freed, Sluice starts there.
// The disk is a real one: a 64 KiB tmpfs, filled (mounting needs root, as on CI); elsewhere the
// state folder's writes are refused with ENOSPC at the fs calls instead.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { Runtime } from '../../main/runtime/runtime.js';
import { buildCli } from '../cli/run-cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string;
let mounted = false;

beforeAll(() => {
  // The command line runs from dist/: built from this tree first.
  buildCli();
}, 120_000);

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-state-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    mounted = true;
  } catch {
    mounted = false;
  }
});
afterEach(async () => {
  vi.restoreAllMocks();
  if (mounted) execFileSync('umount', [dir]);
  await rm(dir, { recursive: true, force: true });
});

/** Fills the disk under `dir` (or refuses writes there); returns how to free it again. */
function fill(stateDir: string): () => void {
  if (mounted) {
    const filler = path.join(dir, 'filler');
    const fd = fs.openSync(filler, 'w');
    const block = Buffer.alloc(4096);
    try {
      for (;;) fs.writeSync(fd, block);
    } catch (e) {
      expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
    return () => fs.rmSync(filler);
  }
  const enospc = (): never => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
  };
  const inState = (p: unknown): boolean => typeof p === 'string' && p.startsWith(stateDir);
  const realWrite = fs.writeFileSync.bind(fs) as (...a: unknown[]) => void;
  const spy = vi
    .spyOn(fs, 'writeFileSync')
    .mockImplementation(((...a: unknown[]) => (inState(a[0]) ? enospc() : realWrite(...a))) as typeof fs.writeFileSync);
  return () => spy.mockRestore();
}

const open = (stateDir: string): Promise<Runtime> =>
  Runtime.open({ stateDir, connection: { sandbox: true }, watchEvents: false });

it('names the state folder and what to do, and starts there once space is freed', async () => {
  const stateDir = path.join(dir, 'state');
  const free = fill(stateDir);
  const err = await open(stateDir).then(
    (rt) => rt.close().then(() => new Error('opened on a full disk')),
    (e: unknown) => e as Error,
  );
  expect(err.message).toBe(
    `The state folder ${stateDir} is on a full disk: free some space, or choose another with --state-dir or SLUICE_STATE_DIR.`,
  );

  // The command line says the same, as its one line (on a real full disk: the in-process refusal
  // above does not reach another process).
  if (mounted) {
    const cli = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'bin/sluice.js'),
        'process',
        fileURLToPath(import.meta.url),
        '--sandbox',
        '--state-dir',
        stateDir,
      ],
      { encoding: 'utf8', env: { ...process.env, SLUICE_API_KEY: '' } },
    );
    expect(cli.stderr.trim()).toBe(`sluice: ${err.message}`);
    expect(cli.status).toBe(1);
  }

  free();
  const rt = await open(stateDir);
  await rt.close();
});
