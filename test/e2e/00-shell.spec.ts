import { expect, test } from '@playwright/test';
import { go, openApp, shot, useOwnServer } from './helpers.js';

// A first start: an empty queue, whatever other specs left on the shared server.
useOwnServer();

test('the shell shows four screens, keyboard navigation and the sandbox banner', async ({ page }) => {
  const problems = await openApp(page);
  await expect(page.getByTestId('simulated-banner')).toBeVisible();
  // Empty queue says what to do next.
  await expect(page.getByTestId('queue-empty')).toContainText('Drop audio or video files here');
  await expect(page.getByRole('button', { name: 'Add a watch folder' })).toBeVisible();
  await shot(page, 'queue-empty');

  await page.keyboard.press('Control+2');
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  await page.keyboard.press('Control+4');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await shot(page, 'shortcuts');
  await page.keyboard.press('Escape');
  await go(page, 'Queue');
  // The token left the address bar once read.
  expect(page.url()).not.toContain('token=');
  expect(problems).toEqual([]);
});
