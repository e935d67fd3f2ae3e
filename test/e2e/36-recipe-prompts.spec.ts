/// <reference lib="dom" />
// Settings shows what each recipe asks the service: opened by keyboard, the Podcast recipe shows
// its summary setting, its questions with their system prompts, and each answer's shape (fields and
// the JSON Schema itself), as main sends them. Light and dark, small and large windows, axe clean.
import { expect, test } from '@playwright/test';
import { expectNoSeriousAxe, focused, go, openApp, shot, THEMES } from './helpers.js';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];

test('the Podcast recipe’s prompts can be read in Settings, by keyboard', async ({ page }) => {
  const problems = await openApp(page);
  await go(page, 'Settings');
  const recipes = page.getByRole('region', { name: 'Recipes' });
  const podcast = recipes.getByTestId('recipe-podcast');
  await expect(podcast).toBeVisible();
  await expect(recipes.locator('details.recipe')).toHaveCount(3);

  // Opened by keyboard: the summary line is reached and Enter opens it.
  const opener = podcast.locator('summary').first();
  await opener.focus();
  expect(await focused(page)).toContain('Podcast episode');
  await page.keyboard.press('Enter');
  await expect(podcast).toHaveAttribute('open', '');

  await expect(podcast.getByTestId('recipe-summary')).toHaveText('detailed, conversational, in paragraphs');
  const prompts = podcast.getByTestId('recipe-prompt');
  await expect(prompts).toHaveCount(3);
  const chapters = prompts.first();
  await expect(chapters.getByRole('heading', { level: 3 })).toContainText('sluice-chapters');
  await expect(chapters.getByTestId('recipe-question')).toContainText(
    'Divide this podcast episode into three to ten chapters, one per topic',
  );
  await expect(chapters.getByTestId('recipe-system')).toContainText('Quote the transcript word for word');
  await expect(chapters.getByTestId('recipe-fields')).toContainText(
    'chapters[].title: text — The chapter title, at most six words.',
  );
  await expect(prompts.nth(2).getByTestId('recipe-question')).toContainText('List five to twelve keywords');

  // The schema, by keyboard: its disclosure opens with Enter and the scrolled text takes focus.
  const schemaOpener = chapters.locator('details.schema summary');
  await schemaOpener.focus();
  await page.keyboard.press('Enter');
  const schema = chapters.getByTestId('recipe-schema');
  await expect(schema).toBeVisible();
  const parsed = JSON.parse((await schema.textContent()) ?? '') as { required: string[] };
  expect(parsed.required).toEqual(['title', 'chapters']);
  await page.keyboard.press('Tab');
  await expect(schema).toBeFocused();

  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await chapters.getByTestId('recipe-fields').scrollIntoViewIfNeeded();
      await shot(page, `recipe-prompts-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `recipes ${scheme} ${size.width}`, '[data-testid=recipes]');
    }
  }
  // The recipe chooser points here once a recipe is chosen.
  const choose = page.locator('#default-recipe');
  await choose.selectOption('podcast');
  await expect(page.locator('#default-recipe-hint')).toContainText('Its questions are listed under Recipes');
  await choose.selectOption('');
  await expect(page.locator('#default-recipe-hint')).toHaveText('Nothing asked beside the transcript.');
  expect(problems).toEqual([]);
});
