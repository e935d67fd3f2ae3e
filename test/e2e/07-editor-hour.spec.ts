import { expect, test, type Page } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  dropFiles,
  env,
  failAtService,
  go,
  keepSettingsForSpec,
  openApp,
  resumeQueueAfterSpec,
  shot,
  toneWav,
} from './helpers.js';

resumeQueueAfterSpec();
// Usage's flow chooses USD to show amounts in.
keepSettingsForSpec(['usage']);

const wav = (name: string, seconds: number) => ({
  name,
  mimeType: 'audio/wav',
  base64: toneWav(seconds).toString('base64'),
});
const row = (page: Page, name: string) => page.locator(`[data-testid=job-row][data-name="${name}"]`);
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });

async function emptyQueue(page: Page): Promise<void> {
  await go(page, 'Queue');
  const clear = page.getByRole('button', { name: 'Clear finished' });
  if (await clear.isVisible()) await clear.click();
  await expect(page.getByTestId('queue-empty')).toBeVisible();
}

/** Every file in the state folder, read as text. */
function stateFiles(): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.push({ file: p, text: readFileSync(p, 'latin1') });
    }
  };
  walk(env.state);
  return out;
}

test('progress: paused says paused, outcomes counted apart, the batch summary stays until dismissed', async ({
  page,
}) => {
  const problems = await openApp(page);
  await go(page, 'Queue');
  // Paused before anything is added, so every file of the batch waits (Pause needs a job on screen).
  if (await page.getByTestId('queue-empty').isVisible()) {
    await dropFiles(page, [wav('hour-warmup.wav', 1)]);
    await expect(row(page, 'hour-warmup.wav')).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
  }
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByTestId('pause-banner')).toBeVisible();
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await expect(page.getByTestId('queue-empty')).toBeVisible();
  await failAtService(['hour-damaged.wav']);
  await dropFiles(page, [
    wav('hour-a.wav', 2),
    wav('hour-b.wav', 2),
    wav('hour-c.wav', 2),
    wav('hour-held.wav', 2),
    // Media the service cannot transcode (the sandbox's fault plan): taken, failed there.
    wav('hour-damaged.wav', 2),
  ]);
  await expect(page.getByText('Queued 5 files.')).toBeVisible();
  await expect(row(page, 'hour-held.wav')).toHaveAttribute('data-state', 'queued');
  const header = page.getByTestId('batch-header');
  await expect(header.getByTestId('batch-eta')).toHaveText('Paused');
  await expect(header.getByTestId('batch-throughput')).toHaveText('—');
  // The header's counts and the tabs' counts come from the same rows: all five wait while paused
  // (the tab's count was read once, before every row had come, and once said 4 against 5).
  const queuedTab = page.getByRole('radio', { name: /^Queued/ });
  await expect(queuedTab.locator('.num')).toHaveText('5');
  await expect(header.getByTestId('batch-queued')).toHaveText('5 queued');
  await shot(page, 'queue-batch-paused');

  await row(page, 'hour-held.wav').getByRole('button', { name: 'Cancel hour-held.wav' }).click();
  await expect(row(page, 'hour-held.wav')).toHaveAttribute('data-state', 'canceled');
  await page.getByTestId('pause-banner').getByRole('button', { name: 'Resume' }).click();
  await expect(header.getByTestId('batch-eta')).not.toHaveText('Paused');
  for (const n of ['hour-a.wav', 'hour-b.wav', 'hour-c.wav']) {
    await expect(row(page, n)).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
  }
  await expect(row(page, 'hour-damaged.wav')).toHaveAttribute('data-state', 'failed', { timeout: 45_000 });
  await expect(header.getByTestId('batch-completed')).toHaveText('3 completed');
  await expect(header.getByTestId('batch-failed')).toHaveText('1 failed');
  await expect(header.getByTestId('batch-canceled')).toHaveText('1 canceled');
  await expect(header.getByTestId('batch-done')).toHaveText('5');
  const summary = page.getByTestId('batch-summary');
  await expect(summary).toContainText('5 files — 3 completed, 1 failed, 1 canceled');
  await shot(page, 'queue-batch-summary');

  // It stays: another screen and back, and clearing the list, do not take it away; Dismiss does.
  await go(page, 'History');
  await go(page, 'Queue');
  await expect(summary).toBeVisible();
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await expect(page.getByTestId('queue-empty')).toBeVisible();
  await expect(summary).toBeVisible();
  await summary.getByRole('button', { name: 'Dismiss' }).click();
  await expect(summary).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('"Add a watch folder" on the empty Queue opens the folder editor, ready to type', async ({ page }) => {
  const problems = await openApp(page);
  await emptyQueue(page);
  await page.getByRole('button', { name: 'Add a watch folder' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const editor = page.getByRole('region', { name: 'Watch folders' }).getByTestId('folder-editor');
  await expect(editor).toBeVisible();
  await expect(editor.getByRole('textbox', { name: 'Folder', exact: true })).toBeFocused();
  await shot(page, 'settings-add-folder-from-queue');
  await editor.getByRole('button', { name: 'Cancel' }).click();
  expect(problems).toEqual([]);
});

test('unsaved settings are never dropped silently: Stay, Discard and Save, by mouse and keyboard', async ({ page }) => {
  const problems = await openApp(page);
  await go(page, 'Settings');
  const uploads = page.getByLabel('Uploads at once');
  const before = await uploads.inputValue();
  const changed = before === '5' ? '6' : '5';
  await uploads.fill(changed);

  // Mouse: Stay keeps the screen and the edit.
  await nav(page, 'Queue').click();
  const dialog = page.getByTestId('leave-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeFocused();
  await shot(page, 'settings-leave-dialog');
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(uploads).toHaveValue(changed);

  // Keyboard: Ctrl+1 asks too; Escape stays; Tab moves within the dialog; Enter on Discard leaves.
  await uploads.focus();
  await page.keyboard.press('Control+1');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(uploads).toHaveValue(changed);
  await page.keyboard.press('Control+1');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Discard' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Queue' })).toBeVisible();
  await go(page, 'Settings');
  await expect(uploads).toHaveValue(before);

  // Save, then leave.
  await uploads.fill(changed);
  await nav(page, 'History').click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  await go(page, 'Settings');
  await expect(uploads).toHaveValue(changed);
  await uploads.fill(before);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved.').first()).toBeVisible();
  expect(problems).toEqual([]);
});

test('an API key for this run only: explained, tested before saving, kept in memory only', async ({ page }) => {
  const problems = await openApp(page);
  await go(page, 'Settings');
  const account = page.getByRole('region', { name: 'Account' });
  // The stand-alone sandbox accepts "sandbox-key"; the server's SLUICE_API_KEY is wrong on purpose.
  await page.getByRole('radio', { name: /Custom/ }).check();
  await page.getByLabel('Base URL').fill(env.sandbox);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved.').first()).toBeVisible();

  await account.getByRole('button', { name: 'Replace' }).click();
  await expect(account).toContainText('SLUICE_API_KEY');
  await account.getByLabel('API key').fill('not-the-key');
  await account.getByRole('button', { name: 'Test connection' }).click();
  await expect(account.getByTestId('test-result')).toHaveAttribute('role', 'alert');
  // The typed key is what is tested (the key in use, from the environment, would fail too).
  await account.getByLabel('API key').fill('sandbox-key');
  await account.getByRole('button', { name: 'Test connection' }).click();
  await expect(account.getByTestId('test-result')).toHaveAttribute('role', 'status');
  await expect(account.getByTestId('test-result')).toContainText('Connected');
  await shot(page, 'settings-typed-key-tested');

  // A typed key not kept yet counts as an unsaved change.
  await nav(page, 'Usage').click();
  await expect(page.getByTestId('leave-dialog')).toContainText('API key');
  await page.getByTestId('leave-dialog').getByRole('button', { name: 'Stay' }).click();

  await account.getByRole('button', { name: 'Use this key until Sluice quits' }).click();
  await expect(account.getByTestId('session-key-notice')).toBeVisible();
  await expect(account.getByTestId('masked-key')).toBeVisible();
  await account.getByRole('button', { name: 'Test connection' }).click();
  await expect(account.getByTestId('test-result')).toContainText('Connected');
  await shot(page, 'settings-session-key');
  // In memory only: no file in the state folder holds it.
  for (const f of stateFiles()) expect(f.text, f.file).not.toContain('sandbox-key');

  await account.getByRole('button', { name: 'Stop using' }).click();
  await expect(account.getByTestId('session-key-notice')).toHaveCount(0);
  await account.getByRole('button', { name: 'Test connection' }).click();
  await expect(account.getByTestId('test-result')).toHaveAttribute('role', 'alert');

  await page.getByRole('radio', { name: /Local sandbox/ }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved.').first()).toBeVisible();
  expect(problems).toEqual([]);
});

test('Usage: hours add up per operation, labels an editor reads, the guard and the CSV in the currency', async ({
  page,
}) => {
  const problems = await openApp(page);
  await go(page, 'Usage');
  await page.getByRole('radio', { name: 'Hours' }).click();
  const ops = page.getByRole('table', { name: 'By operation' });
  await expect(ops.getByRole('row').nth(1)).toBeVisible();
  const labels = await ops.getByRole('rowheader').allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  expect(new Set(labels).size).toBe(labels.length);
  expect(labels).toContain('Batch transcription');
  for (const l of labels) expect(l).not.toMatch(/^[A-Z_]+$/);
  const templates = await page.getByRole('table', { name: 'By template' }).getByRole('rowheader').allTextContents();
  expect(new Set(templates).size).toBe(templates.length);
  await shot(page, 'usage-hours');

  await page.getByLabel('Amounts in').selectOption('USD');
  const gauge = page.getByTestId('cap-gauge');
  await expect(gauge).toContainText('USD');
  await expect(gauge).not.toContainText('credits this month');
  await shot(page, 'usage-usd');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const head = readFileSync(file, 'utf8').split('\n')[0] ?? '';
  expect(head).toContain('Amount (USD)');
  expect(head).toContain('Processing time (hours)');
  expect(head).not.toMatch(/executionTime|credits/);
  expect(problems).toEqual([]);
});
