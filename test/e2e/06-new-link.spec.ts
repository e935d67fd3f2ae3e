// `sluice serve` restarted on the same port prints a new link with a new token. Opened in the tab
// that still shows the old session, only the URL's fragment changes, so the page does not reload:
// the app must take the new token rather than retry the old one forever.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, serve, stop, type Serving } from './restartable.js';

test('a new serve link opened in the same tab connects with its token; the same link again leaves the address bar clean', async ({
  page,
}) => {
  const port = await freePort();
  const state = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-relink-'));
  const first = serve(state, { port });
  let second: Serving | undefined;
  try {
    await page.goto(await first.link);
    await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
    const lost = page.getByText('Lost contact with Sluice');
    await expect(lost).toBeHidden();

    await stop(first.child);
    await expect(lost).toBeVisible();
    // A new token (the state folder keeps its token across restarts unless asked for a new one).
    second = serve(state, { port, args: ['--new-token'] });
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
    await stop(second?.child);
    rmSync(state, { recursive: true, force: true });
  }
});
