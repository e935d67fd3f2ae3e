/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Settings on the way to going live: the key field suggests no sandbox key, and without a keychain
// the Account card says what that costs and what to install, in an editor's words.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { go, openApp, shot } from './helpers.js';

test('the key field suggests no sandbox key; a missing keychain is explained without developer words', async ({
  page,
}) => {
  const problems = await openApp(page);
  await go(page, 'Settings');
  const account = page.getByRole('region', { name: 'Account' });
  await account.getByRole('button', { name: 'Replace' }).click();
  const field = account.getByLabel('API key');
  await expect(field).toHaveAttribute('placeholder', 'Paste your API key');
  // This server has no Secret Service: the card says so, what still works and what to install.
  const problem = account.getByTestId('keychain-problem');
  if ((await problem.count()) > 0) {
    await expect(problem).toContainText('cannot keep your API key between sessions');
    await expect(problem).toContainText('until Sluice quits');
    await expect(problem).not.toContainText(/sign in|keytar|module|node_modules|dist\//i);
  }
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${scheme}: ${v.id}`),
    ).toEqual([]);
    await shot(page, `settings-account-${scheme}`);
  }
  await account.getByRole('button', { name: 'Cancel' }).click();
  expect(problems).toEqual([]);
});
