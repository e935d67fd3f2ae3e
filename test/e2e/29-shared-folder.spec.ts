/// <reference lib="dom" />
// Team mode in the folder editor: a folder is marked as shared with other computers, its claim
// timeout is checked by main and shown beside the field, and the saved folder keeps both.
import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { axe, env, go, openApp, shot, steadyForAxe } from './helpers.js';

test('a folder shared with other computers keeps its claim timeout, and a timeout out of range is explained', async ({
  page,
}) => {
  const problems = await openApp(page);
  const shared = path.join(env.work, 'shared-news');
  mkdirSync(shared, { recursive: true });
  await go(page, 'Settings');
  const folders = page.getByRole('region', { name: 'Watch folders' });
  await folders.getByRole('button', { name: 'Add folder' }).click();
  const editor = folders.getByTestId('folder-editor');
  await editor.getByRole('textbox', { name: 'Folder', exact: true }).fill(shared);
  const timeout = editor.getByRole('spinbutton', { name: /Take over a file/ });
  await expect(timeout).toHaveCount(0);
  await editor.getByRole('checkbox', { name: 'Shared with other computers running Sluice' }).check();
  await expect(timeout).toHaveValue('600');
  await timeout.fill('2');
  await editor.getByRole('button', { name: 'Add folder' }).click();
  await expect(editor.getByRole('alert').first()).toBeVisible();
  await expect(timeout).toHaveAttribute('aria-invalid', 'true');
  await expect(editor.getByRole('alert').first()).toContainText('whole seconds from 5 to 86400');
  for (const scheme of ['light', 'dark'] as const) {
    for (const size of [
      { width: 800, height: 600 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await timeout.scrollIntoViewIfNeeded();
      await shot(page, `shared-folder-${scheme}-${size.width}`);
      await steadyForAxe(page);
      const found = await axe(page).include('[data-testid=folder-editor]').analyze();
      expect(found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await timeout.fill('120');
  await editor.getByRole('button', { name: 'Add folder' }).click();
  await expect(folders.getByTestId('watch-folder').filter({ hasText: shared })).toBeVisible();
  const saved = await page.evaluate(async () => {
    const token = sessionStorage.getItem('sluice-token') ?? '';
    const res = await fetch(new URL('./api/settings:get', location.href), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sluice-token': token },
      body: '{}',
    });
    return (
      (await res.json()) as {
        value: { watchFolders: Array<{ path: string; shared?: boolean; claimTimeoutS?: number }> };
      }
    ).value.watchFolders;
  });
  expect(saved.find((f) => f.path === shared)).toMatchObject({ shared: true, claimTimeoutS: 120 });
  expect(problems).toEqual([]);
});
