/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Cancel on a running job is undoable, as Delete is: the job is canceled only after the notice's
// Undo window has passed, and Undo within it leaves the job running as it was.
import { expect, test } from '@playwright/test';
import {
  axe,
  bridgeCalls,
  env,
  go,
  openApp,
  resumeQueueAfterSpec,
  settledPage,
  shot,
  steadyForAxe,
  toneWav,
} from './helpers.js';

resumeQueueAfterSpec();

const FILE = 'long-running-cancel.wav';

async function upload(): Promise<string> {
  const url = new URL(env.url);
  const form = new FormData();
  // An hour at 2 kHz (14 MB): at work for a while however fast the sandbox processes (global-setup.ts).
  form.set('file', new Blob([new Uint8Array(toneWav(3600, 220, 2_000))], { type: 'audio/wav' }), FILE);
  const r = await fetch(new URL('api/queue:upload', url.origin + url.pathname), {
    method: 'POST',
    headers: { 'x-sluice-token': new URLSearchParams(url.hash.slice(1)).get('token') ?? '' },
    body: form,
  });
  const answer = (await r.json()) as { ok: boolean; value?: Array<{ jobId?: string }> };
  expect(answer.ok).toBe(true);
  return answer.value?.[0]?.jobId ?? '';
}

test('canceling a running job offers Undo, and Undo keeps it running', async ({ page }) => {
  test.setTimeout(120_000);
  // The page's clock runs as usual, and jumps past the Undo window when the test says so.
  await page.clock.install();
  const cancels = bridgeCalls(page, 'queue:cancel');
  const problems = await openApp(page);
  await go(page, 'Queue');
  // A paused queue (an earlier flow may leave it so) would never start the job.
  const resume = page.getByTestId('pause-banner').getByRole('button', { name: 'Resume' });
  if ((await resume.count()) > 0) await resume.click();
  const jobId = await upload();
  const row = page.locator(`[data-testid=job-row][data-id="${jobId}"]`);
  await expect(row).toHaveAttribute('data-state', /uploading|processing/, { timeout: 30_000 });

  await row.getByRole('button', { name: `Cancel ${FILE}` }).click();
  const toast = page.getByRole('status').filter({ hasText: `Canceling ${FILE}` });
  await expect(toast).toBeVisible();
  await shot(page, 'queue-cancel-undo');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(toast).toHaveCount(0);
  // Past the Undo window no cancel went out, and the job is still at work.
  await page.clock.fastForward(7_000);
  await settledPage(page);
  expect(cancels).toEqual([]);
  await expect(row).not.toHaveAttribute('data-state', 'canceled');

  // Asked again and left alone, the cancel goes through.
  await row.getByRole('button', { name: `Cancel ${FILE}` }).click();
  await expect(toast).toBeVisible();
  await expect(row).not.toHaveAttribute('data-state', 'canceled');
  // The notice in both themes while its window runs out.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await steadyForAxe(page);
    const { violations } = await axe(page).analyze();
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${scheme}: ${v.id}`),
    ).toEqual([]);
    await shot(page, `queue-cancel-undo-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await expect(row).toHaveAttribute('data-state', 'canceled', { timeout: 15_000 });
  expect(problems).toEqual([]);
});
