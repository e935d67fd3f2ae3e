/// <reference lib="dom" />
// The folder editor lists what the card rules skipped in that folder, each with the file processed
// instead: a Zoom take copied into a watch folder (its mix and two single inputs) is processed once,
// and the inputs are listed as skipped in favour of the mix. The real app, by keyboard too.
import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { addWatchFolder, axe, env, go, openApp, shot, steadyForAxe, writeWav } from './helpers.js';

test('a Zoom take in a watch folder: the mix is processed, the editor lists the inputs it skipped and what won', async ({
  page,
}) => {
  // Four axe passes and a processed take: more than the default minute on a loaded machine.
  test.setTimeout(180_000);
  const problems = await openApp(page);
  const card = path.join(env.work, 'zoom-h6-card');
  const take = path.join(card, 'ZOOM0007');
  mkdirSync(take, { recursive: true });
  for (const name of ['ZOOM0007_LR.WAV', 'ZOOM0007_Tr1.WAV', 'ZOOM0007_Tr2.WAV']) writeWav(take, name, 2);
  await go(page, 'Settings');
  const { folders, row } = await addWatchFolder(page, card);

  // Opened by keyboard: Edit is a button like any other.
  const edit = row.getByRole('button', { name: 'Edit' });
  await edit.focus();
  await page.keyboard.press('Enter');
  const rules = folders.getByTestId('card-rules');
  await expect(rules.getByRole('combobox', { name: "Of a recorder's take (Zoom)" })).toHaveValue('mix');
  const skipped = rules.getByRole('list', { name: 'Skipped in this folder' });
  // The folder's status arrives as the skips are decided; the editor follows it.
  await expect(skipped.getByRole('listitem')).toHaveCount(2, { timeout: 30_000 });
  for (const input of ['ZOOM0007_Tr1.WAV', 'ZOOM0007_Tr2.WAV']) {
    const item = skipped.getByRole('listitem').filter({ hasText: input });
    await expect(item).toContainText(path.join('ZOOM0007', input));
    await expect(item).toContainText(`processed instead: ${path.join('ZOOM0007', 'ZOOM0007_LR.WAV')}`);
  }
  for (const scheme of ['light', 'dark'] as const) {
    for (const size of [
      { width: 800, height: 600 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await skipped.scrollIntoViewIfNeeded();
      await shot(page, `card-skips-${scheme}-${size.width}`);
      await steadyForAxe(page);
      const found = await axe(page).include('[data-testid=folder-editor]').analyze();
      expect(found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await folders.getByTestId('folder-editor').getByRole('button', { name: 'Cancel' }).click();

  // One take, one job: the mix.
  await go(page, 'Queue');
  await expect(page.locator('[data-testid=job-row][data-name="ZOOM0007_LR.WAV"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-testid=job-row][data-name^="ZOOM0007_Tr"]')).toHaveCount(0);
  expect(problems).toEqual([]);
});
