import { expect, test } from '@playwright/test';
import { go, openApp, processFiles, shot, useOwnServer } from './helpers.js';

// Usage on a server of its own, after two files were processed there (streams to count and chart).
useOwnServer();
test.beforeAll(async () => {
  test.setTimeout(120_000);
  const jobs = await processFiles([
    { name: 'usage-1.wav', seconds: 3 },
    { name: 'usage-2.wav', seconds: 2 },
  ]);
  expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
});

test('Usage shows totals with units, charts, the cap gauge, field errors and a CSV export', async ({ page }) => {
  const problems = await openApp(page);
  await go(page, 'Usage');
  await expect(page.getByTestId('stat-Credits')).toContainText('credits');
  await expect(page.getByTestId('stat-Streams')).not.toContainText('—');
  await expect(page.getByTestId('cap-gauge')).toBeVisible();
  await expect(page.locator('canvas').first()).toBeVisible();
  await shot(page, 'usage');

  // Granularity: hours over more than 31 days is refused, and the message sits by that field.
  const start = new Date();
  start.setMonth(start.getMonth() - 3);
  const iso = `${start.getFullYear()}-${String(start.getMonth() + 1).padStart(2, '0')}-01`;
  await page.getByLabel('From').fill(iso);
  await page.getByRole('radio', { name: 'Hours' }).click();
  const fieldError = page.locator('.controls .error');
  await expect(fieldError.first()).toBeVisible();
  await expect(fieldError.first()).toContainText(/interval|long|HOURS/i);
  await shot(page, 'usage-interval-error');
  await page.getByRole('radio', { name: 'Months' }).click();
  await expect(fieldError).toHaveCount(0);

  // The end before the start is caught before asking the service.
  await page.getByLabel('To').fill('2000-01-01');
  await expect(page.getByText('The end date is before the start date.')).toBeVisible();
  const today = new Date();
  await page
    .getByLabel('To')
    .fill(
      `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`,
    );

  await page.getByLabel('Amounts in').selectOption('EUR');
  await expect(page.getByTestId('stat-Cost')).toContainText('EUR');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  expect(problems).toEqual([]);
});
