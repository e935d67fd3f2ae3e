/// <reference lib="dom" />
// A watch folder whose Save is on its way to main has no unsaved changes: its new row's Edit opens
// at once (it used to ask "Save your changes to this watch folder?" about the folder being saved),
// and the editor opened meanwhile stays open when the save's answer comes back.
import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { addWatchFolder, env, go, openApp } from './helpers.js';

test('Edit on a folder still being saved opens at once, and stays open when the save answers', async ({ page }) => {
  const problems = await openApp(page);
  const card = path.join(env.work, 'saving-race-card');
  mkdirSync(card, { recursive: true });
  // main adds the folder (its row comes with the settings event); its answer to the page is held.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/folders:add', async (route) => {
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  await go(page, 'Settings');
  const { folders, row } = await addWatchFolder(page, card);

  await row.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('dialog', { name: 'Save your changes to this watch folder?' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Edit' })).toHaveAttribute('aria-expanded', 'true');

  release();
  await expect(page.getByText(`Watching ${card}`)).toBeVisible();
  await expect(row.getByRole('button', { name: 'Edit' })).toHaveAttribute('aria-expanded', 'true');
  await expect(folders.getByTestId('folder-editor')).toHaveCount(1);
  await folders.getByTestId('folder-editor').getByRole('button', { name: 'Cancel' }).click();
  await expect(folders.getByTestId('folder-editor')).toHaveCount(0);
  expect(problems).toEqual([]);
});
