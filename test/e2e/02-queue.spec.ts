import { expect, test, type Page } from '@playwright/test';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { dropFiles, env, failAtService, go, openApp, shot, toneWav } from './helpers.js';

const wav = (name: string, seconds: number) => ({
  name,
  mimeType: 'audio/wav',
  base64: toneWav(seconds).toString('base64'),
});
const row = (page: Page, name: string) => page.locator(`[data-testid=job-row][data-name="${name}"]`);

/** Every file under the state dir's upload inbox, by name. */
function inboxFiles(): string[] {
  const inbox = path.join(env.state, 'inbox');
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(f);
    }
  };
  try {
    walk(inbox);
  } catch {
    /* no inbox yet */
  }
  return out;
}

test('dropped files upload, complete, and their results sit beside the uploaded sources', async ({ page }) => {
  const problems = await openApp(page);
  await go(page, 'Queue');
  await dropFiles(page, [wav('take-01.wav', 3), wav('take-02.wav', 2), wav('take-03.wav', 1)]);
  await expect(page.getByText('Queued 3 files.')).toBeVisible();
  for (const n of ['take-01.wav', 'take-02.wav', 'take-03.wav']) {
    await expect(row(page, n)).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
  }
  await expect(page.getByTestId('batch-header')).toBeVisible();
  await shot(page, 'queue-completed');
  // Web uploads are saved in the state dir's inbox; the results are written beside them there.
  await expect
    .poll(() => inboxFiles().filter((f) => f.startsWith('take-01')), { timeout: 20_000 })
    .toEqual(expect.arrayContaining(['take-01.wav', expect.stringMatching(/^take-01.*\.json$/)]));

  // Detail panel: stream id, the service's state and the result files.
  await row(page, 'take-01.wav').dblclick();
  const detail = page.getByTestId('job-detail');
  await expect(detail.getByTestId('stream-id')).not.toHaveText('Not started');
  await expect(detail).toContainText('COMPLETED');
  await expect(detail.getByRole('button', { name: /^Open take-01.*json/ })).toBeVisible();
  // Components of a stream that did not fail are read from the service when the panel opens.
  await expect(detail.locator('.components')).toContainText('transcriber');
  await expect(detail.locator('.components')).toContainText('Gateway');
  await expect(detail.locator('.components')).not.toContainText('has not reported');
  await shot(page, 'queue-detail');
  expect(problems).toEqual([]);
});

test('non-media is refused up front; a damaged file fails in plain words; retry and dismiss from the keyboard', async ({
  page,
}) => {
  const problems = await openApp(page);
  await go(page, 'Queue');
  // Text named .wav never reaches the service: refused at once, named, with the reason.
  await dropFiles(page, [
    {
      name: 'notes.wav',
      mimeType: 'audio/wav',
      base64: Buffer.from('not audio at all '.repeat(64)).toString('base64'),
    },
  ]);
  await expect(page.getByText(/notes\.wav holds text, not audio or video/)).toBeVisible();
  await expect(row(page, 'notes.wav')).toHaveCount(0);
  // A damaged MXF is refused at the door too: the media probe reads MXF and finds no media in it.
  const damaged = Buffer.alloc(4096);
  for (let i = 0; i < damaged.length; i++) damaged[i] = (i * 7919 + 13) % 251;
  await dropFiles(page, [{ name: 'A001_C003.mxf', mimeType: 'application/mxf', base64: damaged.toString('base64') }]);
  await expect(page.getByText(/A001_C003\.mxf cannot be read as audio or video/)).toBeVisible();
  await expect(row(page, 'A001_C003.mxf')).toHaveCount(0);
  // Media the service then cannot transcode fails in plain words.
  await failAtService(['A001_C004.wav']);
  await dropFiles(page, [{ name: 'A001_C004.wav', mimeType: 'audio/wav', base64: toneWav(2).toString('base64') }]);
  const failed = row(page, 'A001_C004.wav');
  await expect(failed).toHaveAttribute('data-state', 'failed', { timeout: 45_000 });
  await failed.click();
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('job-detail');
  const alert = detail.getByRole('alert');
  await expect(alert).toContainText('The service could not read this media');
  await expect(detail.getByTestId('next-step')).toContainText('Check that the file plays');
  // The raw words once, behind a disclosure.
  await expect(alert.getByText(/JobFailedException/).first()).toBeHidden();
  await expect(detail.getByTestId('internal-error-name')).toBeHidden();
  await alert.getByText('Details from the service').click();
  await expect(detail.getByTestId('internal-error-name')).toHaveText('PROCESSOR_TRANSCODING_ERROR');
  await expect(detail.getByText('None: the file did not finish processing.')).toBeVisible();
  await expect(detail).toContainText('ERROR');
  await shot(page, 'queue-failed-detail');

  // R retries the selected job (it fails again, for the same reason).
  await page.getByRole('grid', { name: 'Jobs' }).focus();
  await page.keyboard.press('r');
  await expect(failed).not.toHaveAttribute('data-state', 'failed');
  await expect(failed).toHaveAttribute('data-state', 'failed', { timeout: 45_000 });
  // Delete removes it from the list (it stays in History).
  await page.getByRole('grid', { name: 'Jobs' }).focus();
  await page.keyboard.press('Delete');
  await expect(failed).toHaveCount(0);
  await failAtService([]);
  expect(problems).toEqual([]);
});
