// `sluice serve` restarted on the same port prints a new link with a new token. Opened in the tab
// that still shows the old session, only the URL's fragment changes, so the page does not reload:
// the app must take the new token rather than retry the old one forever.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** One `sluice serve` on `port`; answers its printed link. */
function serve(port: number, stateDir: string, extra: string[] = []): { child: ChildProcess; link: Promise<string> } {
  const child = spawn(
    process.execPath,
    [path.join(root, 'bin/sluice.js'), 'serve', '--port', String(port), '--state-dir', stateDir, ...extra],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SLUICE_API_KEY: 'wrong-key-0000' } },
  );
  let out = '';
  const link = new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      out += d.toString();
      const m = /running at (\S+#token=\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sluice serve exited with ${code}:\n${out}`)));
  });
  return { child, link };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

test('a new serve link opened in the same tab connects with its token; the same link again leaves the address bar clean', async ({
  page,
}) => {
  const port = await freePort();
  const state = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-relink-'));
  const first = serve(port, state);
  let second: ReturnType<typeof serve> | undefined;
  try {
    await page.goto(await first.link);
    await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
    const lost = page.getByText('Lost contact with Sluice');
    await expect(lost).toBeHidden();

    await stop(first.child);
    await expect(lost).toBeVisible();
    // A new token (the state folder keeps its token across restarts unless asked for a new one).
    second = serve(port, state, ['--new-token']);
    const link = await second.link;
    expect(link).not.toBe(await first.link);
    expect(new URL(link).origin).toBe(new URL(await first.link).origin);
    await page.goto(link);
    // The page read the new token (and dropped it from the address bar), then connected with it.
    await page.waitForURL((u) => !u.hash.includes('token='), { timeout: 15_000 });
    expect(await page.evaluate(() => sessionStorage.getItem('sluice-token'))).toBe(new URL(link).hash.slice(7));
    await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
    await expect(lost).toBeHidden();
    await expect(page.getByText('lacks a valid token')).toBeHidden();

    // The same link opened again (a bookmark, the printed link after a restart): nothing to reload,
    // and the token does not stay in the address bar.
    await page.goto(link);
    await page.waitForURL((u) => !u.hash.includes('token='), { timeout: 15_000 });
    await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
    await expect(lost).toBeHidden();
  } finally {
    await stop(first.child);
    if (second) await stop(second.child);
    rmSync(state, { recursive: true, force: true });
  }
});
