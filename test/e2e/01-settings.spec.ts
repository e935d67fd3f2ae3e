import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { env, go, openApp, shot, useOwnServer, writeWav } from './helpers.js';

// A first start: no watch folder yet, whatever other specs left on the shared server.
useOwnServer();

async function saveSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save changes' }).click();
}

test('API key, connection test and the service error on a wrong key', async ({ page }) => {
  const problems = await openApp(page);
  await go(page, 'Settings');
  const account = page.getByRole('region', { name: 'Account' });
  // SLUICE_API_KEY is set for the server: the key shows masked, never in full.
  await expect(account.getByTestId('masked-key')).toHaveText(/0000$/);
  await expect(account).not.toContainText('wrong-key');
  await shot(page, 'settings');

  // Replacing the key: kept in the keychain where there is one; where there is none (as here), the
  // form says so and keeps it for this run only, in memory.
  await account.getByRole('button', { name: 'Replace' }).click();
  await account.getByLabel('API key').press('Enter');
  await expect(account.locator('#api-key-msg')).toContainText('Paste the API key');
  await account.getByLabel('API key').fill('sandbox-key');
  await account.getByLabel('API key').press('Enter');
  await expect(account.getByTestId('masked-key')).toBeVisible();
  if (await account.getByTestId('session-key-notice').isVisible()) {
    await expect(account.getByTestId('keychain-problem')).toContainText(/keychain|Secret Service|install/i);
    // Back to the key from the environment, which the steps below rely on.
    await account.getByRole('button', { name: 'Stop using' }).click();
    await expect(account.getByTestId('session-key-notice')).toHaveCount(0);
  }

  // The embedded sandbox accepts its own key.
  await account.getByRole('button', { name: 'Test connection' }).click();
  await expect(account.getByTestId('test-result')).toContainText('(simulated)');

  // A field error is shown next to its field and nothing is saved.
  await page.getByRole('radio', { name: /Custom/ }).check();
  await page.getByLabel('Base URL').fill('not a url');
  await page.getByLabel('Uploads at once').fill('0');
  await saveSettings(page);
  await expect(page.getByText('Not a valid URL.')).toBeVisible();
  await expect(page.getByText('Enter a whole number of at least 1.')).toBeVisible();
  await expect(page.getByText(/fields need attention — nothing/)).toBeVisible();
  await shot(page, 'settings-validation');

  // Custom, pointed at the stand-alone sandbox: the wrong key from the environment is refused by the service.
  await page.getByLabel('Base URL').fill(env.sandbox);
  await page.getByLabel('Uploads at once').fill('3');
  await saveSettings(page);
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await account.getByRole('button', { name: 'Test connection' }).click();
  const failure = account.getByTestId('test-result');
  await expect(failure).toHaveAttribute('role', 'alert');
  await expect(failure).toContainText(/key|credential|auth/i);
  await shot(page, 'settings-wrong-key');

  // Back to the local sandbox.
  await page.getByRole('radio', { name: /Local sandbox/ }).check();
  await saveSettings(page);
  await expect(page.getByText('Settings saved.').first()).toBeVisible();
  await account.getByRole('button', { name: 'Test connection' }).click();
  await expect(account.getByTestId('test-result')).toContainText('(simulated)');
  expect(problems).toEqual([]);
});

test('a typed watch folder is validated, watched, and its results land beside the source', async ({ page }) => {
  const problems = await openApp(page);
  const watch = path.join(env.work, 'watch');
  mkdirSync(watch, { recursive: true });
  writeWav(watch, 'interview.wav', 2);
  await go(page, 'Settings');
  const folders = page.getByRole('region', { name: 'Watch folders' });
  await folders.getByRole('button', { name: 'Add folder' }).click();
  const editor = folders.getByTestId('folder-editor');
  // The browser has no folder picker: the path is typed.
  await expect(editor).toContainText('type the folder');
  await editor.getByRole('textbox', { name: 'Folder', exact: true }).fill(path.join(env.work, 'does-not-exist'));
  await editor.getByRole('button', { name: 'Add folder' }).click();
  await expect(editor.getByRole('alert').first()).toBeVisible();
  await shot(page, 'settings-folder-error');
  await editor.getByRole('textbox', { name: 'Folder', exact: true }).fill(watch);
  await editor.getByRole('button', { name: 'Add folder' }).click();
  const row = folders.getByTestId('watch-folder');
  await expect(row).toContainText(watch);
  await expect(row.locator('[data-state]')).toHaveAttribute('data-state', /watching|scanning/);
  await shot(page, 'settings-folder');

  // The existing file is picked up and its results are written beside it.
  await expect
    .poll(() => readdirSync(watch).filter((f) => f !== 'interview.wav'), { timeout: 45_000 })
    .toEqual(expect.arrayContaining([expect.stringMatching(/^interview.*\.(json|srt|vtt|txt)$/)]));
  await go(page, 'Queue');
  await expect(page.locator('[data-testid=job-row][data-name="interview.wav"]')).toHaveAttribute(
    'data-state',
    'completed',
  );
  expect(problems).toEqual([]);
});
