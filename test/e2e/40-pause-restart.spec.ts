// Sluice restarted on the same state: the pause the editor chose is still there, and the Queue says
// so at start ("Paused by you." with Resume); a settings file that does not parse is set aside and
// a banner names both files. Each is checked with axe and used by keyboard.
import { axe, steadyForAxe } from './helpers.js';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { serve, stop } from './restartable.js';

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
  const { violations } = await axe(page).analyze();
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
