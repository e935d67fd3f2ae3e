/// <reference lib="dom" />
// The folder editor suggests "Shared with other computers" for a folder on a network drive. No
// network drive can be mounted here, so the one answer of `folders:fileSystem` is given by the test
// (main's own answer is tested in test/ipc/folders-file-system.test.ts); the rest is the real app.
import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { axe, env, go, openApp, settledPage, shot, steadyForAxe } from './helpers.js';

const HINT =
  'This folder is on a network drive (SMB). If other computers watch it, turn on Shared with other computers.';

test('a folder on a network drive shows the hint beside the Shared switch, until it is shared', async ({ page }) => {
  const problems = await openApp(page);
  const nas = path.join(env.work, 'nas-news');
  mkdirSync(nas, { recursive: true });
  const answered: string[] = [];
  await page.route('**/folders:fileSystem', async (route) => {
    const asked = JSON.parse(route.request().postData() ?? '{}') as { path?: string };
    const network = asked.path === nas;
    await route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({
        ok: true,
        value: network ? { verdict: 'network', label: 'SMB', hint: HINT } : { verdict: 'local', label: 'ext4' },
      }),
    });
    if (asked.path) answered.push(asked.path);
  });
  await go(page, 'Settings');
  const folders = page.getByRole('region', { name: 'Watch folders' });
  await folders.getByRole('button', { name: 'Add folder' }).click();
  const editor = folders.getByTestId('folder-editor');
  const field = editor.getByRole('textbox', { name: 'Folder', exact: true });
  const local = path.join(env.work, 'local-news');
  await field.fill(local);
  const hint = editor.getByTestId('network-hint');
  // The answer for the local folder has come back, and the page has acted on it: no hint.
  await expect.poll(() => answered.includes(local)).toBe(true);
  await settledPage(page);
  await expect(hint).toHaveCount(0);
  await field.fill(nas);
  await expect(hint).toHaveText(HINT);
  const shared = editor.getByRole('checkbox', { name: 'Shared with other computers running Sluice' });
  for (const scheme of ['light', 'dark'] as const) {
    for (const size of [
      { width: 800, height: 600 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await hint.scrollIntoViewIfNeeded();
      await shot(page, `network-hint-${scheme}-${size.width}`);
      await steadyForAxe(page);
      const found = await axe(page).include('[data-testid=folder-editor]').analyze();
      expect(found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    }
  }
  // By keyboard: the switch is reached and turned on; the hint has said what it had to.
  await shared.focus();
  await page.keyboard.press('Space');
  await expect(shared).toBeChecked();
  await expect(hint).toHaveCount(0);
  await editor.getByRole('button', { name: 'Cancel' }).click();
  expect(problems).toEqual([]);
});
