// `sluice process` exits non-zero when a file was processed but its results could not be written,
// and says how to get them (`sluice rewrite`, from the kept export). Real conditions: a tmpfs
// mounted read-only (as root), or a folder without write permission (as a normal user).
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Command } from 'commander';
import { runProcess } from '../../main/cli/commands/process.js';
import { registerRewrite } from '../../main/cli/commands/rewrite.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';

const KEY = 'process-exit-key';
const isRoot = process.getuid?.() === 0;

let dir: string;
let sandbox: Sandbox;
let mounted: string | undefined;
let lines: string[];
const savedKey = process.env.SLUICE_API_KEY;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-process-exit-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
  process.env.SLUICE_API_KEY = KEY;
  lines = [];
  const keep = (...a: unknown[]): void => void lines.push(a.map(String).join(' '));
  vi.spyOn(console, 'log').mockImplementation(keep);
  vi.spyOn(console, 'error').mockImplementation(keep);
  vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => {
    keep(String(c));
    return true;
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
  if (savedKey === undefined) delete process.env.SLUICE_API_KEY;
  else process.env.SLUICE_API_KEY = savedKey;
  if (mounted) execFileSync('umount', ['-l', mounted], { stdio: 'ignore' });
  mounted = undefined;
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** A folder holding `take.wav` that nothing can be written into. */
async function readOnlyFolder(): Promise<{ folder: string; unlock: () => Promise<void> }> {
  const folder = path.join(dir, 'media folder');
  await mkdir(folder);
  const tone = await makeToneWav(dir, 'tone.wav', 1);
  if (isRoot) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', folder]);
    mounted = folder;
    await copyFile(tone, path.join(folder, 'take.wav'));
    execFileSync('mount', ['-o', 'remount,ro', folder]);
    return { folder, unlock: async () => void execFileSync('mount', ['-o', 'remount,rw', folder]) };
  }
  await copyFile(tone, path.join(folder, 'take.wav'));
  await chmod(folder, 0o555);
  return { folder, unlock: () => chmod(folder, 0o755) };
}

describe('sluice process exit code', () => {
  it('exits 1 when results could not be written, says to run sluice rewrite, and rewrite then works', async () => {
    const { folder, unlock } = await readOnlyFolder();
    const stateDir = path.join(dir, 'state');
    const code = await runProcess([folder], { param: [], stateDir, baseUrl: sandbox.url });
    const out = lines.join('\n');
    expect(code, out).toBe(1);
    expect(out).toMatch(/read-only|not writable/);
    expect(out).toContain(
      `1 file was processed but the results could not be written (reasons above). Fix the cause, then run: sluice rewrite '${folder}' --state-dir ${stateDir}`,
    );
    // Following the advice: the results appear without processing again.
    await unlock();
    const uploads = sandbox.stats().upload;
    const program = new Command('sluice').exitOverride();
    registerRewrite(program);
    await program.parseAsync(['rewrite', folder, '--state-dir', stateDir], { from: 'user' });
    expect(JSON.parse(await readFile(path.join(folder, 'take.json'), 'utf8'))).toHaveProperty('transcription');
    expect(sandbox.stats().upload).toBe(uploads);
    // A second run finds the file processed, its results written: exit 0.
    lines = [];
    expect(await runProcess([folder], { param: [], stateDir, baseUrl: sandbox.url }), lines.join('\n')).toBe(0);
  }, 60_000);

  it('exits 0 when every result was written', async () => {
    const folder = path.join(dir, 'ok');
    await mkdir(folder);
    await makeToneWav(folder, 'take.wav', 1);
    const code = await runProcess([folder], { param: [], stateDir: path.join(dir, 'state'), baseUrl: sandbox.url });
    expect(code, lines.join('\n')).toBe(0);
    expect(lines.join('\n')).not.toContain('sluice rewrite');
  }, 60_000);
});
