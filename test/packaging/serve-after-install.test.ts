// The README's promise: after `npm ci` alone, `npx sluice serve` serves the interface. A copy of
// the project's files gets only what `npm ci` runs after installing (the `prepare` script), then
// the real command is started and asked for its page: the built app, not the "not built yet" one.
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
let copy: string;

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), 'sluice-fresh-'));
  const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0');
  for (const f of tracked.filter(Boolean)) {
    await cp(path.join(ROOT, f), path.join(copy, f)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e; // deleted in the working tree
    });
  }
  await symlink(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  const r = spawnSync('npm', ['run', '--silent', 'prepare'], { cwd: copy, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`prepare failed:\n${r.stdout}\n${r.stderr}`);
}, 300_000);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

/** Starts `sluice serve` in the copy; answers its link once printed, and a way to stop it. */
function serve(stateDir: string): Promise<{ openUrl: string; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [path.join(copy, 'bin/sluice.js'), 'serve', '--sandbox', '--state-dir', stateDir],
    {
      cwd: copy,
      env: { ...process.env, SLUICE_API_KEY: 'fresh-install-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const hard = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(hard);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => void stop().then(() => reject(new Error(`no link printed:\n${out}`))), 60_000);
    const read = (c: Buffer) => {
      out += c.toString();
      const m = /https?:\/\/\S+#token=\S+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ openUrl: m[0], stop });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}):\n${out}`));
    });
  });
}

describe('sluice serve after npm ci', () => {
  it('serves the built interface and its assets', { timeout: 120_000 }, async () => {
    const state = path.join(copy, 'state');
    const { openUrl, stop } = await serve(state);
    try {
      const page = await fetch(new URL('/', openUrl));
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).not.toMatch(/not built yet/i);
      // The page is the one the renderer build wrote, and the script it names is served.
      expect(html).toBe(await readFile(path.join(copy, 'dist/renderer/index.html'), 'utf8'));
      const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const js = await fetch(new URL(script ?? '', openUrl));
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toContain('javascript');
      expect((await js.text()).length).toBeGreaterThan(1000);
    } finally {
      await stop();
    }
  });
});
