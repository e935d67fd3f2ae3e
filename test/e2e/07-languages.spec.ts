import { expect, test } from '@playwright/test';
import { axe, go, openApp, shot, steadyForAxe } from './helpers.js';

test('languages by name: search, several, keyboard, kept across a template change, checked by the service', async ({
  page,
}) => {
  const problems = await openApp(page);
  await go(page, 'Settings');
  const defaults = page.getByRole('region', { name: 'Defaults for files added by hand' });
  const field = defaults.getByRole('combobox', { name: 'Language' });
  const picker = defaults.getByTestId('language-picker');
  await expect(picker.getByRole('list', { name: 'Chosen languages' })).toHaveText('Detect automatically');

  // Type to filter, Enter toggles the best match.
  await field.click();
  await expect(field).toHaveAttribute('aria-expanded', 'true');
  const list = defaults.getByRole('listbox', { name: 'Language' });
  await expect(list).toHaveAttribute('aria-multiselectable', 'true');
  await field.fill('germ');
  await expect(list.getByRole('option')).toHaveText([/German/]);
  await field.press('Enter');
  await expect(list.getByRole('option', { name: /German/ })).toHaveAttribute('aria-selected', 'true');
  // Arrows then Space toggle; several languages are allowed.
  await field.fill('');
  await field.fill('rom');
  await field.press('ArrowDown');
  await field.press(' ');
  await expect(picker.getByRole('list', { name: 'Chosen languages' })).toContainText('German');
  await expect(picker.getByRole('list', { name: 'Chosen languages' })).toContainText('Romanian');
  await shot(page, 'language-picker');
  // The picker's own structure (combobox, listbox, options, chips). Contrast of the shared hint
  // text is the global palette's, checked with the other screens.
  await steadyForAxe(page);
  const found = await axe(page).include('[data-testid="language-picker"]').disableRules(['color-contrast']).analyze();
  expect(found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  // Backspace in the empty field removes the last chip; Escape closes the list.
  await field.fill('');
  await field.press('Backspace');
  await expect(picker.getByRole('list', { name: 'Chosen languages' })).not.toContainText('Romanian');
  await field.press('Escape');
  await expect(field).toHaveAttribute('aria-expanded', 'false');

  // Another template keeps what it accepts.
  await defaults.getByLabel('Template').selectOption({ label: 'Transcription + speakers' });
  await expect(picker.getByRole('list', { name: 'Chosen languages' })).toContainText('German');
  // The account's own template is offered too.
  await expect(defaults.getByLabel('Template').locator('option', { hasText: 'Acme newsroom (v2)' })).toHaveCount(1);

  await defaults.getByRole('button', { name: 'Check these settings' }).click();
  await expect(defaults.getByTestId('template-check')).toHaveText('The service accepts these settings.');

  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved.').first()).toBeVisible();
  await page.reload();
  await go(page, 'Settings');
  await expect(
    page
      .getByRole('region', { name: 'Defaults for files added by hand' })
      .getByRole('list', { name: 'Chosen languages' }),
  ).toHaveText(/German/);
  expect(problems).toEqual([]);
});
