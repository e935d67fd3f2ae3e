/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// History at 800 × 600 with a job's detail open keeps the file-name column: the narrower the list,
// the more of the other columns go (the detail shows them), never the name.
import { expect, test } from '@playwright/test';
import { axe, go, openApp, resumeQueueAfterSpec, seedScreens, shot, steadyForAxe, THEMES } from './helpers.js';

resumeQueueAfterSpec();

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  await seedScreens(page);
  await page.close();
});

test('History at 800 × 600 with the detail open keeps the file names readable', async ({ page }) => {
  const problems = await openApp(page);
  await page.setViewportSize({ width: 800, height: 600 });
  await go(page, 'History');
  // Found by name, however many files other specs added after it.
  await page.getByRole('searchbox', { name: 'Search file names' }).fill('seed-short');
  const row = page.getByTestId('history-row').filter({ hasText: 'seed-short.wav' }).first();
  await row.click();
  await expect(page.getByTestId('history-detail')).toBeVisible();
  const name = row.locator('.file .name');
  // Room for a name like "seed-short.wav" whole (about 100 px), not a sliver; read once the list
  // has settled on the search (a row being replaced has no box).
  await expect(page.locator('.stale')).toHaveCount(0);
  await expect.poll(async () => (await name.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(100);
  await expect(name).toBeInViewport();
  // The heading row's labels stay apart (no "FI STATE").
  const [file, state] = await Promise.all([0, 1].map((i) => page.locator('.list-head > *').nth(i).boundingBox()));
  expect(file && state && file.x + file.width <= state.x).toBe(true);
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await steadyForAxe(page);
    const { violations } = await axe(page).analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await shot(page, `history-detail-${theme}-800x600`);
  }
  expect(problems).toEqual([]);
});
