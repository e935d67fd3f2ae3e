/// <reference lib="dom" />
// The job detail in an editor's words: a Podcast-recipe file with a glossary says what was asked
// (template, recipe, glossary size, language), what came back, when, and what it cost; the
// parameters, prompts and the service's states are behind one "Service details" disclosure, closed
// by default, that opens by keyboard. Queue and History, light and dark, small and large, axe clean.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { bridge, expectNoSeriousAxe, go, keepSettingsForSpec, openApp, processFiles, shot, THEMES } from './helpers.js';

keepSettingsForSpec(['defaults']);

const SIZES = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];

async function plainFirst(page: Page, detail: Locator, name: string): Promise<void> {
  const asked = detail.getByTestId('job-asked');
  await expect(asked).toContainText('Template');
  await expect(asked).toContainText('Recipe');
  await expect(asked).toContainText('Podcast episode');
  await expect(asked).toContainText('Glossary');
  await expect(asked).toContainText('3 terms');
  await expect(asked).toContainText('Language');
  await expect(asked).toContainText('German');
  // No service internals on show: the prompts, their keys and the states wait behind the disclosure.
  const service = detail.getByTestId('service-details');
  await expect(service).not.toHaveAttribute('open', '');
  for (const raw of ['ask0System', 'etVocabulary', 'Gateway', 'Service state']) {
    await expect(detail.getByText(raw, { exact: true }).first()).toBeHidden();
  }
  await expect(detail.getByRole('heading', { name: 'Timings' })).toBeVisible();
  await expect(detail.getByTestId('file-cost')).toBeVisible();
  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await detail.getByTestId('job-asked').scrollIntoViewIfNeeded();
      await shot(page, `43-${name}-detail-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `${name} detail ${scheme} ${size.width}`, `[data-testid=${name}-detail]`);
    }
  }
  // Opened by keyboard, for support: the parameters as sent and the service's states.
  await service.locator('summary').first().focus();
  await page.keyboard.press('Enter');
  await expect(service).toHaveAttribute('open', '');
  await expect(service.getByText('ask0System', { exact: true })).toBeVisible();
  await expect(service.getByTestId('stream-id')).not.toHaveText('Not started');
  await service.scrollIntoViewIfNeeded();
  await shot(page, `43-${name}-service-details-dark-1920`);
  await expectNoSeriousAxe(page, `${name} service details`, `[data-testid=${name}-detail]`);
}

test('a recipe file’s detail says what was asked, what came back and what it cost; internals behind one disclosure', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await bridge('settings:update', {
    patch: {
      defaults: {
        recipe: 'podcast',
        glossary: ['MoveFlow', 'Zoë Ødegaard', 'Hafen'],
        params: { language: 'de' },
        output: { formats: ['json', 'srt', 'shownotes'] },
      },
    },
  });
  await bridge('queue:resume', {});
  const problems = await openApp(page);
  await processFiles([{ name: 'asked-episode.wav', seconds: 20 }]);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await go(page, 'Queue');
  await page.locator('[data-testid=job-row][data-name="asked-episode.wav"]').dblclick();
  const detail = page.getByTestId('job-detail');
  await plainFirst(page, detail, 'job');

  await go(page, 'History');
  await page.getByRole('searchbox', { name: 'Search file names' }).fill('asked-episode');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(1);
  await rows.first().click();
  await plainFirst(page, page.getByTestId('history-detail'), 'history');
  expect(problems).toEqual([]);
});
