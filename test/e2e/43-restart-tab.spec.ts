/// <reference lib="dom" />
// A browser tab survives a restart: `sluice serve` keeps its access token for the state folder, so
// the tab opened with the printed link says "Reconnecting…" while Sluice is down and carries on,
// without a reload, once it is back, loading again what the stop cut off (Settings' first load, on
// its way as Sluice stopped, left Settings "not reachable" for good). Started with --new-token, the old tab says once that its link
// no longer works and to open the new one, instead of "Reconnecting…" for ever; the new link works.
// Light and dark, small and large, axe clean.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectNoSeriousAxe, shot, THEMES } from './helpers.js';
import { freePort, serve, stop } from './restartable.js';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];

test('a tab opened before a restart carries on; after --new-token it asks for the new link once', async ({ page }) => {
  test.setTimeout(180_000);
  const state = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-restart-tab-'));
  const port = await freePort();
  const running: ChildProcess[] = [];
  const problems: string[] = [];
  try {
    const first = serve(state, { port });
    running.push(first.child);
    const link = await first.link;
    // Sluice stops while the tab's first load is on its way: its Settings request (held here until
    // the stop, then sent to a Sluice that is gone) gets no answer, as it did about half the time
    // when the stop simply came soon after the page opened.
    let reached!: () => void;
    const held = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route(
      '**/api/settings:get',
      async (route) => {
        reached();
        await released;
        await route.continue();
      },
      { times: 1 },
    );
    const cutOff = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/api/settings:get'));
    await page.goto(link);
    await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
    const reconnecting = page.getByTestId('reconnecting');
    const stale = page.getByTestId('stale-link');
    await held;
    await stop(first.child);
    release();
    await cutOff;
    await expect(reconnecting).toBeVisible({ timeout: 20_000 });
    const screens = page.getByRole('navigation', { name: 'Screens' });
    await screens.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { name: 'Settings could not be loaded' })).toBeVisible();

    // The same state folder: the same token, so the tab carries on by itself, and loads again what
    // the stop cut off: Settings shows without a reload or a "Try again".
    const second = serve(state, { port });
    running.push(second.child);
    expect(await second.link).toBe(link);
    await expect(reconnecting).toBeHidden({ timeout: 30_000 });
    await expect(stale).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Watch folders' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Settings could not be loaded' })).toHaveCount(0);
    for (const scheme of THEMES) {
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await expect(reconnecting).toHaveCount(0);
        await shot(page, `43-restart-carried-on-${scheme}-${size.width}`);
        await expectNoSeriousAxe(page, `carried on after a restart ${scheme} ${size.width}`);
      }
    }
    await screens.getByRole('button', { name: 'Queue' }).click();
    await screens.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByRole('region', { name: 'Watch folders' })).toBeVisible();
    page.on('pageerror', (e) => problems.push(e.message));
    await stop(second.child);
    await expect(reconnecting).toBeVisible({ timeout: 20_000 });

    // A new token: the old tab is told once, and stops saying "Reconnecting…".
    const third = serve(state, { port, args: ['--new-token'] });
    running.push(third.child);
    const renewed = await third.link;
    expect(renewed).not.toBe(link);
    await expect(stale).toBeVisible({ timeout: 30_000 });
    await expect(stale).toContainText('open the link');
    await expect(reconnecting).toHaveCount(0);
    for (const scheme of THEMES) {
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await shot(page, `43-stale-link-${scheme}-${size.width}`);
        await expectNoSeriousAxe(page, `stale link ${scheme} ${size.width}`);
      }
    }
    // Pasting the new link into the tab takes it at once.
    await page.goto(renewed);
    await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
    await expect(stale).toHaveCount(0);
    await expect(reconnecting).toHaveCount(0);
    expect(problems).toEqual([]);
  } finally {
    for (const c of running) await stop(c);
    rmSync(state, { recursive: true, force: true });
  }
});
