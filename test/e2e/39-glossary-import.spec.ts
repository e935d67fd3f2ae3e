/// <reference lib="dom" />
// A glossary imported from a CSV file in Settings: the terms of its first column join those typed,
// each once, the header and repeats left out, with a line saying what was added; a file with no
// terms says so and changes nothing. Saved, the defaults hold the terms. Light and dark, small and
// large, axe clean. Specs share one server: the glossary is emptied again at the end.
import { expect, test } from '@playwright/test';
import { bridge, expectNoSeriousAxe, go, openApp, shot, THEMES } from './helpers.js';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];

interface Saved {
  defaults: { glossary?: string[] };
}

test('a glossary is imported from a CSV file beside the typed terms, and saved', async ({ page }) => {
  const problems = await openApp(page);
  await go(page, 'Settings');
  const field = page.locator('#default-glossary');
  await field.fill('Sluice');
  await field.blur();

  await page.locator('#default-glossary-file').setInputFiles({
    name: 'names.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('term,note\nMoveFlow,product\n"Zoë Ødegaard",host\nsluice,already typed\n', 'utf8'),
  });
  await expect(page.locator('#default-glossary-imported')).toHaveText(
    '2 terms added from names.csv (1 already in the list).',
  );
  await expect(field).toHaveValue('Sluice\nMoveFlow\nZoë Ødegaard');

  await page.locator('#default-glossary-file').setInputFiles({
    name: 'empty.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('\n# nothing here\n', 'utf8'),
  });
  await expect(page.locator('#default-glossary-imported')).toHaveText(
    'empty.txt holds no terms: write one name or term per line.',
  );
  await expect(field).toHaveValue('Sluice\nMoveFlow\nZoë Ødegaard');

  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await field.scrollIntoViewIfNeeded();
      await shot(page, `glossary-import-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `glossary import ${scheme} ${size.width}`);
    }
  }

  // The button opens the file chooser, by keyboard too.
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('glossary-import').first().focus();
  await page.keyboard.press('Enter');
  await (await chooser).setFiles([]);

  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect
    .poll(async () => (await bridge<Saved>('settings:get')).defaults.glossary)
    .toEqual(['Sluice', 'MoveFlow', 'Zoë Ødegaard']);

  await field.fill('');
  await field.blur();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(async () => (await bridge<Saved>('settings:get')).defaults.glossary ?? []).toEqual([]);
  expect(problems).toEqual([]);
});
