/// <reference lib="dom" />
// The walkthrough's small items, in the real app: a folder typed as `~/…` is the home folder's;
// the summary's own settings show only while Summary is ticked; a finished batch's banner goes when
// a new batch starts. Light and dark, small and large, axe clean.
import { expect, test } from '@playwright/test';
import { mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import {
  addWatchFolder,
  bridge,
  expectNoSeriousAxe,
  go,
  jobRow,
  keepSettingsForSpec,
  openApp,
  processFiles,
  shot,
  THEMES,
  toneWav,
} from './helpers.js';

keepSettingsForSpec(['defaults']);

const SIZES = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];

test('a folder typed as ~/… is the home folder’s', async ({ page }) => {
  const name = `sluice-e2e-43-${process.pid}-${Date.now()}`;
  const dir = path.join(homedir(), name);
  mkdirSync(dir);
  try {
    const problems = await openApp(page);
    await go(page, 'Settings');
    const { row } = await addWatchFolder(page, `~/${name}`, dir);
    await expect(row.locator('.path')).toHaveText(dir);
    for (const scheme of THEMES) {
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await row.scrollIntoViewIfNeeded();
        await shot(page, `43-tilde-folder-${scheme}-${size.width}`);
        await expectNoSeriousAxe(page, `tilde folder ${scheme} ${size.width}`);
      }
    }
    await row.getByRole('button', { name: `Remove ${dir}` }).click();
    await page.getByRole('button', { name: 'Stop watching' }).click();
    await expect(row).toHaveCount(0);
    expect(problems).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the summary’s settings show only while Summary is ticked', async ({ page }) => {
  await bridge('settings:update', { patch: { defaults: { params: {} } } });
  const problems = await openApp(page);
  await go(page, 'Settings');
  const summary = page.getByRole('checkbox', { name: 'Summary', exact: true }).first();
  await summary.scrollIntoViewIfNeeded();
  await expect(summary).not.toBeChecked();
  await expect(page.getByLabel('Summary length')).toHaveCount(0);
  await expect(page.getByLabel('Summary tone')).toHaveCount(0);
  await summary.check();
  await expect(page.getByLabel('Summary length').first()).toBeVisible();
  await expect(page.getByLabel('Summary structure').first()).toBeVisible();
  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await summary.scrollIntoViewIfNeeded();
      await shot(page, `43-summary-settings-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `summary settings ${scheme} ${size.width}`);
    }
  }
  await summary.uncheck();
  await expect(page.getByLabel('Summary length')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a finished batch’s banner goes when a new batch starts', async ({ page }) => {
  test.setTimeout(150_000);
  await bridge('queue:resume', {});
  await processFiles([{ name: 'first-batch-43.wav', seconds: 2 }]);
  const problems = await openApp(page);
  await go(page, 'Queue');
  const banner = page.getByTestId('batch-summary');
  await expect(banner).toBeVisible();
  await shot(page, '43-batch-banner-before-light-1920');
  // A new batch: paused first so it is seen under way, not finished at once.
  await bridge('queue:pause', {});
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(toneWav(2, 550))], { type: 'audio/wav' }), 'second-batch-43.wav');
  await bridge('queue:upload', form);
  await expect(jobRow(page, 'second-batch-43.wav')).toBeVisible();
  await expect(banner).toHaveCount(0);
  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await shot(page, `43-batch-banner-new-batch-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `new batch ${scheme} ${size.width}`);
    }
  }
  await bridge('queue:resume', {});
  await expect(jobRow(page, 'second-batch-43.wav')).toHaveAttribute('data-state', 'completed', { timeout: 60_000 });
  // Its own outcome shows once it is done.
  await expect(banner).toBeVisible();
  expect(problems).toEqual([]);
});
