/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// "Set a cap" on Usage leads to the cap: Settings opens with the spending guard in view and focus
// on its switch (the cap field once the guard is on), not at the top of Settings.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { env, go, openApp, shot, THEMES } from './helpers.js';

async function bridge(channel: string, body: object): Promise<void> {
  const url = new URL(env.url);
  const r = await fetch(new URL(`api/${channel}`, url.origin + url.pathname), {
    method: 'POST',
    headers: {
      'x-sluice-token': new URLSearchParams(url.hash.slice(1)).get('token') ?? '',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  expect(((await r.json()) as { ok: boolean }).ok).toBe(true);
}

test('Set a cap on Usage opens Settings at the spending guard, focus on it', async ({ page }) => {
  await bridge('settings:update', { patch: { spendingGuard: { enabled: false } } });
  for (const size of [
    { width: 800, height: 600 },
    { width: 1920, height: 1080 },
  ]) {
    const problems = await openApp(page);
    await page.setViewportSize(size);
    await go(page, 'Usage');
    await page.getByRole('button', { name: 'Set a cap' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const guard = page.getByTestId('spending-guard');
    await expect(guard).toBeInViewport();
    await expect(guard.getByRole('checkbox', { name: 'Pause at' })).toBeFocused();
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await shot(page, `settings-at-cap-${theme}-${size.width}x${size.height}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
  }
});
