import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { bridge, env, failAtService, go, openApp, processFiles, shot, toneWav, useOwnServer } from './helpers.js';

// History on a server of its own, holding what the Queue's flow leaves: three takes completed, and
// a damaged file that failed at the service and was dismissed from the Queue.
useOwnServer();

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await failAtService(['A001_C004.wav']);
  let jobs;
  try {
    jobs = await processFiles([
      { name: 'take-01.wav', seconds: 3 },
      { name: 'take-02.wav', seconds: 2 },
      { name: 'take-03.wav', seconds: 1 },
      { name: 'A001_C004.wav', seconds: 2 },
    ]);
  } finally {
    await failAtService([]);
  }
  expect(jobs.map((j) => `${j.fileName} ${j.state}`).sort()).toEqual([
    'A001_C004.wav failed',
    'take-01.wav completed',
    'take-02.wav completed',
    'take-03.wav completed',
  ]);
  await bridge('queue:dismiss', { id: jobs.find((j) => j.fileName === 'A001_C004.wav')?.id ?? '' });
});

/** A stream started by another tool on the same account: straight to the service, not via Sluice. */
async function seedExternalStream(name: string): Promise<string> {
  const id = randomUUID();
  const q = new URLSearchParams({
    streamConfigurationTemplateId: '668115d123bca7e3509723d4',
    id,
    name,
    persist: 'true',
  });
  const r = await fetch(`${env.embedded}/http-gateway/api/v1/upload?${q}`, {
    method: 'POST',
    headers: { authorization: 'Basic sandbox-key', 'content-type': 'application/octet-stream' },
    body: new Uint8Array(toneWav(1)),
  });
  expect(r.status).toBe(200);
  return id;
}

test('History lists every job, searches, filters, and re-exports results', async ({ page }) => {
  const external = await seedExternalStream('from-another-tool.wav');
  const problems = await openApp(page);
  await go(page, 'History');
  const rows = page.getByTestId('history-row');
  await expect(rows.first()).toBeVisible();
  // Dismissed jobs (A001_C004.wav was removed from the Queue) are still here.
  await expect(page.locator('[data-testid=history-row][data-name="A001_C004.wav"]')).toBeVisible();
  await shot(page, 'history');

  await page.getByRole('searchbox', { name: 'Search file names' }).fill('take-0');
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId('history-total')).toContainText('3 entries');
  await page.getByRole('combobox', { name: 'State' }).selectOption('failed');
  await expect(page.getByText('Nothing matches these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await page.getByRole('combobox', { name: 'State' }).selectOption('failed');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-name', 'A001_C004.wav');
  // A date range that starts tomorrow holds nothing.
  const tomorrow = new Date(Date.now() + 86_400_000);
  const iso = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
  await page.getByRole('combobox', { name: 'State' }).selectOption('');
  await page.getByLabel('From').fill(iso);
  await expect(page.getByText('Nothing matches these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();

  // The stream another tool started is listed too, marked as known only to the service.
  await page.getByRole('searchbox', { name: 'Search file names' }).fill('from-another-tool');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('service');
  await rows.first().click();
  await expect(page.getByTestId('history-detail')).toContainText('From the service');
  await expect(page.getByTestId('history-detail')).toContainText(external);
  // Its components come straight from the service, even though Sluice never tracked it.
  await expect(page.getByTestId('history-detail').locator('.components')).toContainText('transcriber');
  await page.getByRole('button', { name: 'Clear filters' }).first().click();

  // Re-export a completed entry while the service still holds it.
  await page.getByRole('searchbox', { name: 'Search file names' }).fill('take-01');
  // One row, and take-01's: the row still listed from the search before is one row too.
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-name', 'take-01.wav');
  await rows.first().click();
  const detail = page.getByTestId('history-detail');
  await expect(detail).toContainText('take-01.json');
  await detail.getByRole('button', { name: 'Re-export results' }).click();
  // The formats are asked for first; the job's own are checked.
  await page.getByTestId('reexport-dialog').getByRole('button', { name: 'Re-export', exact: true }).click();
  await expect(page.getByText(/Saved \d+ result files? again/)).toBeVisible();
  await shot(page, 'history-detail');

  // The new run's parameters are the template's own form, holding this run's values.
  await detail.getByText('Parameters for the new run').click();
  await expect(detail.getByRole('combobox', { name: /Language/ }).first()).toBeVisible();
  await shot(page, 'history-rerun-params');

  // Re-run with another template goes back to the queue.
  await detail.getByRole('button', { name: 'Re-run' }).click();
  // Asked first: it bills again and replaces this run's results.
  const confirm = detail.getByRole('group', { name: 'Confirm re-run' });
  await expect(confirm).toContainText(/replaces the \d+ result files? of this run/);
  await shot(page, 'history-rerun-confirm');
  await confirm.getByRole('button', { name: 'Re-run and replace' }).click();
  await expect(page.getByText(/Queued again|already/)).toBeVisible();
  expect(problems).toEqual([]);
});
