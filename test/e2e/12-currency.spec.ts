// The currency Usage shows amounts in is one setting: chosen on Usage it is what Settings shows, and
// chosen in Settings (searched by name) it is what Usage shows. Ends on credits, as the later
// screens expect.
import { expect, test } from '@playwright/test';
import { go, keepSettingsForSpec, openApp, shot } from './helpers.js';

keepSettingsForSpec(['usage']);

test('the currency is one setting: searched by name in Settings, shared with Usage', async ({ page }) => {
  const problems = await openApp(page);
  await go(page, 'Usage');
  await page.getByLabel('Amounts in').selectOption('USD');
  await expect(page.getByTestId('stat-Cost')).toContainText('USD');

  await go(page, 'Settings');
  const section = page.getByRole('region', { name: 'Usage' });
  const field = section.getByRole('combobox', { name: 'Amounts in' });
  await expect(field).toHaveValue('US Dollar (USD)');

  // A name that is no currency is refused where it was typed; nothing changes.
  await field.fill('Zorkmid');
  await field.press('Tab');
  await expect(section.getByRole('alert')).toContainText('Choose a currency from the list');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'settings-currency-unknown');

  // Part of a name is enough when only one currency has it.
  await field.fill('yen');
  await field.press('Tab');
  await expect(field).toHaveValue('Japanese Yen (JPY)');
  await expect(section.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved.').first()).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'settings-currency');

  await go(page, 'Usage');
  await expect(page.getByLabel('Amounts in')).toHaveValue('JPY');
  await expect(page.getByTestId('stat-Cost')).toContainText('JPY');
  await page.getByLabel('Amounts in').selectOption('');
  await expect(page.getByTestId('stat-Credits')).toContainText('credits');

  await go(page, 'Settings');
  await expect(field).toHaveValue('Credits');
  expect(problems).toEqual([]);
});
