// `sluice watch` stopped while it is still starting (state folder opened, folders being scanned)
// stops cleanly: exit 0, and the state folder's lock is released for the next Sluice.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir } from '../helpers/media.js';
import { buildCli } from './run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KEY = 'watch-signal-key';

let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-watch-signal-');
  sandbox = await startSandbox({ apiKey: KEY });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('sluice watch and SIGTERM', () => {
  it('a SIGTERM during start-up closes the runtime and releases the lock', async () => {
    // Enough entries that the first scan is still running when the signal comes.
    const media = path.join(dir, 'media');
    for (let d = 0; d < 40; d++) {
      const sub = path.join(media, `d${d}`);
      await mkdir(sub, { recursive: true });
      await Promise.all(Array.from({ length: 100 }, (_, i) => writeFile(path.join(sub, `f${i}.txt`), '')));
    }
    const stateDir = path.join(dir, 'state');
    const lock = path.join(stateDir, 'engine.lock');
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'bin/sluice.js'), 'watch', media, '--state-dir', stateDir, '--base-url', sandbox.url],
      { env: { ...process.env, SLUICE_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    // The lock is taken as the state folder is opened: from then on the runtime owns it.
    const started = Date.now();
    while (!existsSync(lock)) {
      if (Date.now() - started > 30_000) throw new Error(`no lock after 30 s:\n${out}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    child.kill('SIGTERM');
    const result = await exited;
    expect(out).not.toContain('Watching');
    expect(result, out).toEqual({ code: 0, signal: null });
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});
