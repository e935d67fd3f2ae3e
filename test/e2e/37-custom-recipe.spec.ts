/// <reference lib="dom" />
// Copy a recipe and edit its wording: Podcast copied by keyboard, a question emptied (refused in
// words beside it) then reworded, leaving with the edit open asks first, the copy saved and listed
// with its wording, chosen as the default for files added by hand, its deletion refused while
// chosen, then deleted and brought back with Undo. Light and dark, small and large, axe clean.
// Specs share one server: everything made here is removed again at the end.
import { expect, test } from '@playwright/test';
import { bridge, expectNoSeriousAxe, focused, go, openApp, shot, THEMES } from './helpers.js';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];

interface Saved {
  customRecipes?: Array<{ id: string; name: string; prompts: Array<{ prompt: string }> }>;
  defaults: { recipe?: string | null };
}

test('a copied recipe’s wording is edited, saved, chosen, and deleted with Undo', async ({ page }) => {
  const name = `E2E show ${Date.now().toString(36)}`;
  const question = 'Cut this episode into chapters, one per segment of the show.';
  const problems = await openApp(page);
  await go(page, 'Settings');
  const recipes = page.getByRole('region', { name: 'Recipes' });

  // Copy and edit, by keyboard: the editor opens with the cursor in the name.
  await recipes.getByRole('button', { name: 'Copy and edit Podcast episode' }).focus();
  await page.keyboard.press('Enter');
  const editor = recipes.getByTestId('custom-recipe-editor');
  await expect(editor).toBeVisible();
  await expect(editor.getByLabel('Name')).toBeFocused();
  await expect(editor.getByLabel('Name')).toHaveValue('Podcast episode (copy)');
  await expect(editor).toContainText('edited wording cannot break a result format');
  await expect(editor.getByTestId('custom-recipe-question')).toHaveCount(3);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(name);

  // An emptied question is refused in words beside it; nothing is saved.
  const first = editor.getByTestId('custom-recipe-prompt').first();
  await first.fill('');
  await editor.getByTestId('custom-recipe-save').click();
  await expect(editor.getByRole('alert')).toHaveText('Write the question; it must not be empty.');
  await expect(first).toHaveAttribute('aria-invalid', 'true');
  await first.fill(question);
  await expect(editor.getByRole('alert')).toHaveCount(0);

  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await first.scrollIntoViewIfNeeded();
      await shot(page, `custom-recipe-editor-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `recipe editor ${scheme} ${size.width}`, '[data-testid=recipes]');
    }
  }

  // Escape with unsaved wording asks first; Stay keeps every word.
  await first.focus();
  await page.keyboard.press('Escape');
  const leave = page.getByTestId('leave-dialog');
  await expect(leave.getByRole('heading')).toHaveText('Save your changes to this recipe?');
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(first).toHaveValue(question);

  // Saved: listed under "Your recipes" with its wording, the Copy button focused again.
  await editor.getByTestId('custom-recipe-save').click();
  await expect(editor).toBeHidden();
  const mine = recipes.getByTestId('custom-recipe').filter({ hasText: name });
  await expect(mine).toHaveCount(1);
  expect(await focused(page)).toContain('Copy and edit');
  await mine.locator('summary').first().click();
  await expect(mine.getByTestId('recipe-question').first()).toHaveText(question);
  await expect(mine.getByTestId('recipe-prompt').first()).toContainText('sluice-chapters');
  const saved = await bridge<Saved>('settings:get');
  const id = saved.customRecipes?.find((r) => r.name === name)?.id ?? '';
  expect(id).toMatch(/^custom-e2e-show-/);
  const before = saved.defaults.recipe ?? null;

  await mine.scrollIntoViewIfNeeded();
  for (const scheme of THEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await shot(page, `custom-recipe-listed-${scheme}`);
    await expectNoSeriousAxe(page, `custom recipe listed ${scheme}`, '[data-testid=recipes]');
  }

  // The folder editor offers it too, under "Your recipes"; a chosen but unsaved folder is discarded.
  await page.getByRole('button', { name: 'Add folder' }).click();
  const folderRecipe = page.locator('#new-folder-recipe');
  await expect(folderRecipe.locator('optgroup[label="Your recipes"] option', { hasText: name })).toHaveCount(1);
  await folderRecipe.selectOption({ label: name });
  await expect(page.locator('#new-folder-recipe-hint')).toContainText('Based on Podcast episode');
  await page.getByTestId('folder-editor').getByRole('button', { name: 'Cancel' }).click();
  await page.getByTestId('leave-dialog').getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByTestId('folder-editor')).toBeHidden();

  // Chosen as the default for files added by hand, after the built-ins.
  const choose = page.locator('#default-recipe');
  const labels = await choose.locator('option').allTextContents();
  expect(labels.slice(0, 4)).toEqual(['Transcript only', 'Podcast episode', 'Interview / rushes', 'Meeting']);
  expect(labels).toContain(name);
  await choose.selectOption({ label: name });
  await expect(page.locator('#default-recipe-hint')).toContainText('Based on Podcast episode, with its own wording');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(async () => (await bridge<Saved>('settings:get')).defaults.recipe).toBe(id);

  // Deleting it while chosen is refused, naming where it is chosen.
  await mine.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'was not deleted' })).toContainText(
    'chosen by the defaults for files added by hand',
  );
  await expect(mine).toHaveCount(1);

  // Chosen no more: deleted at once, and Undo brings it back with its wording.
  await choose.selectOption(before ?? '');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(async () => (await bridge<Saved>('settings:get')).defaults.recipe ?? null).toBe(before);
  await mine.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(mine).toHaveCount(0);
  const toast = page.getByRole('status').filter({ hasText: `Recipe “${name}” deleted.` });
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(mine).toHaveCount(1);
  const back = (await bridge<Saved>('settings:get')).customRecipes?.find((r) => r.id === id);
  expect(back?.prompts[0]?.prompt).toBe(question);

  // Left as found: the copy deleted again.
  await mine.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(mine).toHaveCount(0);
  await expect
    .poll(async () => (await bridge<Saved>('settings:get')).customRecipes?.some((r) => r.id === id) ?? false)
    .toBe(false);
  expect(problems).toEqual([]);
});
