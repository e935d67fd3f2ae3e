/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// "Set a cap" on Usage leads to the cap: Settings opens with the spending guard in view and focus
// on its switch (the cap field once the guard is on), not at the top of Settings.
import { expect, test } from '@playwright/test';
import { axe, bridge, go, keepSettingsForSpec, openApp, shot, steadyForAxe, THEMES } from './helpers.js';

keepSettingsForSpec(['spendingGuard']);

test('Set a cap on Usage opens Settings at the spending guard, focus on it', async ({ page }) => {
  // Four full-page axe passes over Settings: ~20 s quiet, several times that on a loaded machine.
  test.setTimeout(180_000);
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
      await steadyForAxe(page);
      const { violations } = await axe(page).analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await shot(page, `settings-at-cap-${theme}-${size.width}x${size.height}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
  }
});
