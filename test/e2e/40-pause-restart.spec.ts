// Sluice restarted on the same state: the pause the editor chose is still there, and the Queue says
// so at start ("Paused by you." with Resume); a settings file that does not parse is set aside and
// a banner names both files. Each is checked with axe and used by keyboard.
import AxeBuilder from '@axe-core/playwright';
import { steadyForAxe } from './helpers.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One `sluice serve` on its own state folder (embedded sandbox); answers its printed link. */
function serve(stateDir: string): { child: ChildProcess; link: Promise<string> } {
  const child = spawn(
    process.execPath,
    [path.join(root, 'bin/sluice.js'), 'serve', '--state-dir', stateDir, '--sandbox'],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SLUICE_API_KEY: '' } },
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

/** Pauses the queue as the Pause button does (`queue:pause`), through the bridge the page uses. */
async function pause(link: string): Promise<void> {
  const url = new URL(link);
  const r = await fetch(new URL('api/queue:pause', url.origin + url.pathname), {
    method: 'POST',
    headers: {
      'x-sluice-token': new URLSearchParams(url.hash.slice(1)).get('token') ?? '',
      'content-type': 'application/json',
    },
    body: '{}',
  });
  expect(((await r.json()) as { ok: boolean }).ok).toBe(true);
}

async function noSeriousFindings(page: Page): Promise<void> {
  await steadyForAxe(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

test('a pause chosen before a restart is still there, and Resume works by keyboard', async ({ page }) => {
  const state = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-pause-'));
  const running: ChildProcess[] = [];
  try {
    const first = serve(state);
    running.push(first.child);
    const link = await first.link;
    await page.goto(link);
    // The Queue's Pause button shows with work queued; an empty queue is paused through the bridge.
    await pause(link);
    const banner = page.getByTestId('pause-banner');
    await expect(banner).toContainText('Paused by you.');
    await stop(first.child);

    const second = serve(state);
    running.push(second.child);
    await page.goto(await second.link);
    await expect(banner).toContainText('Paused by you.');
    await noSeriousFindings(page);
    const resume = banner.getByRole('button', { name: 'Resume' });
    await resume.focus();
    await page.keyboard.press('Enter');
    await expect(banner).toBeHidden();
  } finally {
    for (const c of running) await stop(c);
    rmSync(state, { recursive: true, force: true });
  }
});

test('a settings file that does not parse is set aside, and the banner names both files', async ({ page }) => {
  const state = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-settings-'));
  writeFileSync(path.join(state, 'settings.json'), '{"settings": {"queue": {"uploadConc');
  const s = serve(state);
  try {
    await page.goto(await s.link);
    const kept = readdirSync(state).find((n) => n.startsWith('settings.json.damaged-'));
    expect(kept).toBeDefined();
    const banner = page.getByTestId('settings-set-aside');
    await expect(banner).toContainText(path.join(state, 'settings.json'));
    await expect(banner).toContainText(path.join(state, kept ?? ''));
    await noSeriousFindings(page);
    await banner.getByRole('button', { name: 'Dismiss' }).focus();
    await page.keyboard.press('Enter');
    await expect(banner).toBeHidden();
  } finally {
    await stop(s.child);
    rmSync(state, { recursive: true, force: true });
  }
});
