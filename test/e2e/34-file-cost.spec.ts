/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// A file that ran the Podcast recipe: its detail in the Queue names the recipe and, when asked,
// shows what it cost per operation (the AI prompts on their own line) with a total; History's
// detail does the same, in the currency chosen in Settings, its answer formats folded and indented
// under Service details.
import { expect, test, type Locator } from '@playwright/test';
import { bridge, expectNoSeriousAxe, go, keepSettingsForSpec, openApp, shot, toneWav } from './helpers.js';

keepSettingsForSpec(['defaults', 'usage']);

async function costShown(detail: Locator, amount: RegExp): Promise<void> {
  const cost = detail.getByTestId('file-cost');
  await cost.getByRole('button', { name: 'Show what it cost' }).click();
  const lines = cost.getByTestId('file-cost-line');
  await expect(lines.filter({ hasText: 'Batch transcription' })).toContainText('1.5 min of audio');
  const ai = lines.filter({ hasText: 'Questions and AI processing' });
  await expect(ai).toContainText(/[\d,]+ AI tokens read · [\d,]+ written/);
  await expect(cost.getByTestId('file-cost-total')).toContainText('Total');
  await expect(cost.getByTestId('file-cost-total')).toContainText(amount);
}

test('what a recipe file cost, in the Queue and in History', async ({ page }) => {
  test.setTimeout(180_000);
  // Credits first (the Queue's detail), a currency later (History's).
  await bridge('settings:update', {
    patch: {
      defaults: { recipe: 'podcast', output: { formats: ['json', 'chapters', 'youtube', 'shownotes'] } },
      usage: { currency: null },
    },
  });
  try {
    // An earlier flow on the same server may leave the queue paused.
    await bridge('queue:resume', {});
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(toneWav(90))], { type: 'audio/wav' }), 'costed-episode.wav');
    await bridge('queue:upload', form);

    const problems = await openApp(page);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await go(page, 'Queue');
    const row = page.locator('[data-testid=job-row][data-name="costed-episode.wav"]');
    await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 90_000 });
    await row.dblclick();
    const detail = page.getByTestId('job-detail');
    await expect(detail.getByTestId('job-asked')).toContainText('Podcast episode');
    await costShown(detail, /credits/);
    await detail.getByTestId('file-cost').scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousAxe(page, `queue ${scheme}`, '[data-testid=job-detail]');
      await shot(page, `file-cost-queue-${scheme}-1920`);
    }

    // History, after a reload (nothing kept), in the currency chosen in Settings.
    await bridge('settings:update', { patch: { usage: { currency: 'EUR' } } });
    await page.reload();
    await go(page, 'History');
    await page.getByRole('searchbox', { name: 'Search file names' }).fill('costed-episode');
    const rows = page.getByTestId('history-row');
    await expect(rows).toHaveCount(1);
    await rows.first().click();
    const entry = page.getByTestId('history-detail');
    await expect(entry.getByTestId('job-asked')).toContainText('Podcast episode');
    await costShown(entry, /€/);
    await entry.getByTestId('file-cost').scrollIntoViewIfNeeded();
    for (const [scheme, size] of [
      ['light', { width: 1920, height: 1080 }],
      ['dark', { width: 1920, height: 1080 }],
      ['light', { width: 800, height: 600 }],
      ['dark', { width: 800, height: 600 }],
    ] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(size);
      await entry.getByTestId('file-cost').scrollIntoViewIfNeeded();
      await expectNoSeriousAxe(page, `history ${scheme} ${size.width}`, '[data-testid=history-detail]');
      await shot(page, `file-cost-history-${scheme}-${size.width}`);
    }
    // The recipe's answer formats read as indented JSON behind a disclosure, not one long line.
    const schema = entry.getByTestId('param-json').first();
    await expect(schema).toBeHidden();
    await entry.getByTestId('service-details').locator('summary').first().click();
    await entry.getByTestId('param-json-toggle').first().click();
    await expect(schema).toBeVisible();
    const text = (await schema.textContent()) ?? '';
    expect(text.split('\n').length).toBeGreaterThan(5);
    expect(JSON.parse(text)).toHaveProperty('properties');
    await schema.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousAxe(page, `history params ${scheme}`, '[data-testid=history-detail]');
      await shot(page, `file-cost-history-params-${scheme}-800`);
    }
    expect(problems).toEqual([]);
  } finally {
    await bridge('settings:update', { patch: { defaults: { recipe: null }, usage: { currency: null } } });
  }
});
