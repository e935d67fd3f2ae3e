/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Settings on the way to going live: the key field suggests no sandbox key, and without a keychain
// the Account card says what that costs and what to install, in an editor's words.
import { expect, test } from '@playwright/test';
import { axe, bridge as post, go, openApp, shot, steadyForAxe } from './helpers.js';

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
    await steadyForAxe(page);
    const { violations } = await axe(page).analyze();
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${scheme}: ${v.id}`),
    ).toEqual([]);
    await shot(page, `settings-account-${scheme}`);
  }
  await account.getByRole('button', { name: 'Cancel' }).click();
  expect(problems).toEqual([]);
});

test('a key entered while on the sandbox switches to the service in one step', async ({ page }) => {
  const problems = await openApp(page);
  await go(page, 'Settings');
  const account = page.getByRole('region', { name: 'Account' });
  await expect(page.getByTestId('simulated-banner')).toBeVisible();
  await account.getByRole('button', { name: 'Replace' }).click();
  await account.getByLabel('API key').fill('sk_live_9f8e7d6c5b4a');
  await expect(account.getByTestId('go-live')).toContainText('results are simulated');
  await shot(page, 'settings-go-live-offer');
  try {
    await account.getByRole('button', { name: 'Use this key and switch to the service' }).click();
    // One click: the key is in use and the connection is the service's (unreachable from here).
    await expect(account.getByTestId('masked-key')).toHaveText(/5b4a$/);
    await expect(page.getByTestId('simulated-banner')).toHaveCount(0);
    const settings = await post<{ connection: { mode: string } }>('settings:get', {});
    expect(settings.connection).toEqual({ mode: 'production', auth: 'apiKey' });
    await shot(page, 'settings-gone-live');
  } finally {
    // Back to the sandbox and the server's own key, for any flow after this one.
    await post('settings:update', { patch: { connection: { mode: 'sandbox' } } });
    await post('settings:clearApiKey', {});
  }
  expect(problems).toEqual([]);
});
