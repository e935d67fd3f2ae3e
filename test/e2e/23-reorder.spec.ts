/// <reference lib="dom" />
import { expect, test, type Page } from '@playwright/test';
import {
  dropFiles,
  env,
  go,
  jobRow,
  keepSettingsForSpec,
  resumeQueueAfterSpec,
  seedScreens,
  shot,
  toneWav,
} from './helpers.js';

resumeQueueAfterSpec();
// Uploads at once is set to 1 for the order to show.
keepSettingsForSpec(['queue']);

// Reordering with the mouse: drag a queued row, or use its menu. The service sees the uploads in
// the new order (read back from the sandbox's own stream list, by creation time).

const wav = (name: string) => ({ name, mimeType: 'audio/wav', base64: toneWav(1).toString('base64') });

/** The streams the service got since `since` (ms), oldest first: earlier specs' uploads left out. */
async function streamsByCreation(since: number): Promise<string[]> {
  const r = await fetch(`${env.embedded}/stream-service/api/v1/streams?size=500`, {
    headers: { authorization: 'Basic sandbox-key' },
  });
  expect(r.status).toBe(200);
  const page = (await r.json()) as { content: Array<{ name: string; createdTimestamp: string }> };
  return page.content
    .filter((s) => Date.parse(s.createdTimestamp) >= since)
    .sort((a, b) => Date.parse(a.createdTimestamp) - Date.parse(b.createdTimestamp))
    .map((s) => s.name);
}

async function queuedOrder(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid=job-row][data-state=queued]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name') ?? ''));
}

async function setUploadsAtOnce(page: Page, n: number): Promise<void> {
  await go(page, 'Settings');
  await page.getByLabel('Uploads at once').fill(String(n));
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved.').first()).toBeVisible();
}

test('dragging a row and the row menu reorder the queue, and uploads follow that order', async ({ page }) => {
  test.setTimeout(180_000);
  await seedScreens(page);
  // One upload at a time, so the service's creation times give the order without ties.
  await setUploadsAtOnce(page, 1);
  await go(page, 'Queue');
  await expect(page.getByTestId('pause-banner')).toBeVisible();
  await dropFiles(page, [wav('order-a.wav'), wav('order-b.wav'), wav('order-c.wav')]);
  await expect(jobRow(page, 'order-c.wav')).toHaveAttribute('data-state', 'queued');
  expect(await queuedOrder(page)).toEqual([
    'seed-held-1.wav',
    'seed-held-2.wav',
    'order-a.wav',
    'order-b.wav',
    'order-c.wav',
  ]);

  // Drag order-c onto the upper half of the first queued row.
  const target = jobRow(page, 'seed-held-1.wav');
  const box = await target.boundingBox();
  await jobRow(page, 'order-c.wav').dragTo(target, {
    targetPosition: { x: 200, y: Math.max(2, (box?.height ?? 40) / 4) },
  });
  await expect
    .poll(() => queuedOrder(page))
    .toEqual(['order-c.wav', 'seed-held-1.wav', 'seed-held-2.wav', 'order-a.wav', 'order-b.wav']);
  // And onto the lower half of a middle row: below it.
  const mid = jobRow(page, 'seed-held-1.wav');
  const midBox = await mid.boundingBox();
  await jobRow(page, 'order-b.wav').dragTo(mid, { targetPosition: { x: 200, y: (midBox?.height ?? 40) * 0.8 } });
  await expect
    .poll(() => queuedOrder(page))
    .toEqual(['order-c.wav', 'seed-held-1.wav', 'order-b.wav', 'seed-held-2.wav', 'order-a.wav']);

  // The row menu: Move to top, then Move down, from the keyboard inside the menu.
  await jobRow(page, 'order-a.wav').getByRole('button', { name: 'More actions for order-a.wav' }).click();
  const menu = page.getByRole('menu', { name: 'Actions for order-a.wav' });
  await expect(menu.getByRole('menuitem', { name: 'Show details' })).toBeFocused();
  await shot(page, 'queue-row-menu');
  await menu.getByRole('menuitem', { name: 'Move to top' }).click();
  await expect(menu).toHaveCount(0);
  await expect(jobRow(page, 'order-a.wav').getByRole('button', { name: 'More actions for order-a.wav' })).toBeFocused();
  await expect
    .poll(() => queuedOrder(page))
    .toEqual(['order-a.wav', 'order-c.wav', 'seed-held-1.wav', 'order-b.wav', 'seed-held-2.wav']);
  await jobRow(page, 'seed-held-1.wav').getByRole('button', { name: 'More actions for seed-held-1.wav' }).click();
  await page.keyboard.press('ArrowDown'); // Move to top
  await page.keyboard.press('ArrowDown'); // Move up
  await page.keyboard.press('ArrowDown'); // Move down
  await page.keyboard.press('Enter');
  const expected = ['order-a.wav', 'order-c.wav', 'order-b.wav', 'seed-held-1.wav', 'seed-held-2.wav'];
  await expect.poll(() => queuedOrder(page)).toEqual(expected);

  // Resume, and keep pressing Alt+↑ on the first job while it starts: the refusals make one notice.
  await jobRow(page, 'order-a.wav').click();
  // Each notice the page shows from here on, even one gone again by the time the jobs complete.
  await page.evaluate(() => {
    const seen: Element[] = [];
    (window as unknown as { noticesSeen: Element[] }).noticesSeen = seen;
    new MutationObserver((changes) => {
      for (const c of changes)
        for (const n of Array.from(c.addedNodes))
          if (n instanceof HTMLElement)
            for (const t of [n, ...Array.from(n.querySelectorAll('.toast'))]) if (t.matches('.toast')) seen.push(t);
    }).observe(document.body, { childList: true, subtree: true });
  });
  const resumed = Date.now() - 1000;
  await page.evaluate(async () => {
    const grid = document.querySelector<HTMLElement>('[role=grid][aria-label=Jobs]')!;
    const resume = Array.from(document.querySelectorAll<HTMLButtonElement>('button')).find(
      (b) => b.textContent?.trim() === 'Resume',
    )!;
    resume.click();
    for (let i = 0; i < 30; i++) {
      grid.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', altKey: true, bubbles: true }));
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  for (const n of expected)
    await expect(jobRow(page, n)).toHaveAttribute('data-state', 'completed', { timeout: 60_000 });
  // Every move was answered long before the last job completed: every notice shown since is counted.
  const notices = await page.evaluate(() =>
    (window as unknown as { noticesSeen: Element[] }).noticesSeen.map((t) => t.textContent ?? ''),
  );
  expect(notices.filter((t) => t.includes('Could not move')).length).toBeLessThanOrEqual(1);

  const order = (await streamsByCreation(resumed)).filter((n) => expected.includes(n));
  expect(order).toEqual(expected);
  await setUploadsAtOnce(page, 2);
});
