/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// By keyboard, a job's details are one Tab from the list (the rows' buttons are the mouse's; the
// list has a key for each), and an action taken in the details that removes its own button
// (Cancel, Retry) hands focus on inside the details instead of dropping it to <body>.
import { expect, test, type Page } from '@playwright/test';
import {
  axe,
  dropFiles,
  focused,
  go,
  jobRow,
  openApp,
  resumeQueueAfterSpec,
  seedScreens,
  shot,
  steadyForAxe,
  THEMES,
  toneWav,
} from './helpers.js';

resumeQueueAfterSpec();

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  await seedScreens(page);
  await page.close();
});

const inDetail = (page: Page): Promise<boolean> =>
  page.evaluate(() => !!document.activeElement?.closest('[data-testid=job-detail]'));

test('the details are one Tab from the list, and Cancel then Retry there keep focus in them', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = await openApp(page);
  await go(page, 'Queue');
  // The seeded queue is paused: a file dropped now waits, so Cancel and Retry act on a queued job.
  await expect(page.getByTestId('pause-banner')).toBeVisible();
  const name = 'kb-details.wav';
  if ((await jobRow(page, name).count()) === 0) {
    await dropFiles(page, [{ name, mimeType: 'audio/wav', base64: toneWav(1).toString('base64') }]);
  }
  const row = jobRow(page, name);
  await expect(row).toHaveAttribute('data-state', 'queued');

  const grid = page.getByRole('grid', { name: 'Jobs' });
  await row.click();
  await grid.focus();
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('job-detail');
  await expect(detail.getByRole('heading', { name })).toBeVisible();
  // One Tab: past every row's buttons, into the details.
  await page.keyboard.press('Tab');
  expect(await inDetail(page)).toBe(true);

  for (const size of [
    { width: 800, height: 600 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await steadyForAxe(page);
      const { violations } = await axe(page).analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await shot(page, `queue-detail-keyboard-${theme}-${size.width}x${size.height}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1360, height: 860 });

  // Cancel by keyboard: the button goes with the job's new state; focus stays in the details.
  const cancel = detail.getByRole('button', { name: 'Cancel' });
  await cancel.focus();
  await page.keyboard.press('Enter');
  await expect(row).toHaveAttribute('data-state', 'canceled');
  await expect(cancel).toHaveCount(0);
  await expect.poll(() => focused(page)).not.toBe('<body>');
  expect(await inDetail(page)).toBe(true);

  // Retry by keyboard: the same.
  const retry = detail.getByRole('button', { name: 'Retry' });
  await retry.focus();
  await page.keyboard.press('Enter');
  await expect(row).toHaveAttribute('data-state', 'queued');
  await expect(retry).toHaveCount(0);
  await expect.poll(() => focused(page)).not.toBe('<body>');
  expect(await inDetail(page)).toBe(true);

  // Tidy: the job leaves the queue as it came (canceled, then removed).
  await grid.focus();
  await page.keyboard.press('c');
  await expect(row).toHaveAttribute('data-state', 'canceled');
  await page.keyboard.press('Delete');
  await expect(row).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('Queue rows shorten a long folder path in the middle, keeping the folders at its end', async ({ page }) => {
  const problems = await openApp(page);
  await page.setViewportSize({ width: 800, height: 600 });
  await go(page, 'Queue');
  // A job of its own: what the specs before left in the queue is theirs.
  const name = `folder-middle-${Date.now()}.wav`;
  await dropFiles(page, [{ name, mimeType: 'audio/wav', base64: toneWav(1).toString('base64') }]);
  const row = jobRow(page, name);
  await expect(row).toBeVisible();
  // Selected, the list keeps the row drawn when it moves as the queue's other jobs change state
  // (the list draws only the rows near what it shows, and a row moved out of them is gone).
  await row.click();
  await expect(row).toHaveClass(/selected/);
  const folder = row.locator('.folder');
  const full = (await folder.getAttribute('data-full')) ?? '';
  // A file added by hand sits in its own folder of the inbox: the end tells it from the others.
  const end = folder.locator('.end');
  await expect(end).toBeVisible();
  const kept = (await end.textContent()) ?? '';
  expect(kept.length).toBeGreaterThanOrEqual(16);
  expect(full.endsWith(kept)).toBe(true);
  // Whole on screen: the end is not clipped by the row's narrow column, the start is.
  const [box, outer] = await Promise.all([end.boundingBox(), folder.boundingBox()]);
  expect(box && outer && box.x + box.width <= outer.x + outer.width + 0.5).toBe(true);
  const clipped = await folder.locator('.start').evaluate((e) => e.scrollWidth > e.clientWidth);
  expect(clipped).toBe(true);
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await shot(page, `queue-folder-middle-${theme}-800x600`);
  }
  expect(problems).toEqual([]);
});
