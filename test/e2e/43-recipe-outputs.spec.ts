/// <reference lib="dom" />
// A recipe is a choice of outputs: choosing Podcast episode in a folder's editor ticks the files its
// answers make (and says which), the Markdown hint follows the recipe, another recipe unticks what
// only the first made, and the saved folder's summary line names the recipe, the caption layout,
// where results go and the glossary. Light and dark, small and large, axe clean; the folder is
// removed again at the end (specs share one server).
import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { env, expectNoSeriousAxe, go, openApp, shot, THEMES } from './helpers.js';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];

test('choosing a recipe ticks its files, and the folder’s line names recipe, layout, place and glossary', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const problems = await openApp(page);
  const dir = path.join(env.work, 'podcast-episodes-43');
  mkdirSync(dir, { recursive: true });
  await go(page, 'Settings');
  const folders = page.getByRole('region', { name: 'Watch folders' });
  await folders.getByRole('button', { name: 'Add folder' }).click();
  const editor = folders.getByTestId('folder-editor');
  await editor.getByRole('textbox', { name: 'Folder', exact: true }).fill(dir);

  const box = (name: string) => editor.getByRole('checkbox', { name, exact: true });
  const recipeMade = [
    'Markdown',
    'Chapters (Podcasting 2.0 JSON)',
    'YouTube chapters',
    'Show notes',
    'Chapters for ffmpeg',
  ];
  for (const name of recipeMade) await expect(box(name)).not.toBeChecked();
  await expect(editor.locator('#new-folder-out-note-md')).toContainText('none is asked for');

  const recipe = editor.locator('#new-folder-recipe');
  await recipe.selectOption('podcast');
  for (const name of recipeMade) await expect(box(name)).toBeChecked();
  await expect(editor.getByTestId('recipe-files')).toHaveText(
    'Ticked in Result files: Markdown, Chapters (Podcasting 2.0 JSON), YouTube chapters, Show notes, Chapters for ffmpeg.',
  );
  // The hint follows the recipe: Markdown has the recipe's summary and answers to hold.
  await expect(editor.locator('#new-folder-out-note-md')).toHaveCount(0);

  // A meeting makes no chapters: those go, what both make stays, what the editor ticked stays.
  await box('Final Cut Pro (FCPXML)').check();
  await recipe.selectOption('meeting');
  await expect(box('Chapters (Podcasting 2.0 JSON)')).not.toBeChecked();
  await expect(box('YouTube chapters')).not.toBeChecked();
  await expect(box('Show notes')).toBeChecked();
  await expect(box('Markdown')).toBeChecked();
  await expect(box('Final Cut Pro (FCPXML)')).toBeChecked();
  // Transcript only: the recipe's files go, with a line saying where they come from if ticked by hand.
  await recipe.selectOption('');
  await expect(box('Show notes')).not.toBeChecked();
  await box('Show notes').check();
  await expect(editor.locator('#new-folder-out-note-shownotes')).toHaveText(
    'Made from a recipe’s answers: choose a recipe above.',
  );
  await box('Show notes').uncheck();

  await recipe.selectOption('podcast');
  await editor.locator('#new-folder-glossary').fill('MoveFlow\nZoë Ødegaard');
  await editor.locator('#new-folder-glossary').blur();
  // One field for one idea: the template's vocabulary is not offered beside the glossary.
  await expect(editor.getByRole('textbox', { name: /^Vocabulary/ })).toHaveCount(0);
  await expect(editor.getByRole('textbox', { name: 'Glossary' })).toBeVisible();
  await editor.locator('#new-folder-out-captions').selectOption('broadcast');
  await editor.getByRole('checkbox', { name: /^Vertical video/ }).check();

  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await recipe.scrollIntoViewIfNeeded();
      await shot(page, `43-recipe-outputs-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `recipe outputs ${scheme} ${size.width}`, '[data-testid=folder-editor]');
    }
  }

  await editor.getByRole('button', { name: 'Add folder' }).click();
  const row = folders.getByTestId('watch-folder').filter({ hasText: dir });
  await expect(row.getByTestId('folder-summary')).toContainText(
    'Recipe: Podcast episode · Captions: Broadcast + Vertical video · Results beside each file · Glossary: 2 terms',
  );
  await expect(row.getByTestId('folder-summary')).toContainText('SHOWNOTES');
  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await row.scrollIntoViewIfNeeded();
      await shot(page, `43-folder-summary-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `folder summary ${scheme} ${size.width}`, '[data-testid=watch-folder]');
    }
  }

  await row.getByRole('button', { name: `Remove ${dir}` }).click();
  await page.getByRole('button', { name: 'Stop watching' }).click();
  await expect(row).toHaveCount(0);
  expect(problems).toEqual([]);
});
