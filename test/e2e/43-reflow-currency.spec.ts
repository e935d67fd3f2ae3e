/// <reference lib="dom" />
// Two of the walkthrough's items in the real app. S3-9: "Save results again" in another caption
// layout writes `{name}.vertical.srt` beside the main captions, which keep their bytes; replacing
// them is a box to tick, asked about once more. S3-13: Usage offers credits and the currencies the
// service prices (the sandbox's, asked of it), not ~160; a saved currency it no longer prices says
// so in place. Light and dark, small and large, axe clean.
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  bridge,
  env,
  expectNoSeriousAxe,
  go,
  jobRow,
  keepSettingsForSpec,
  openApp,
  processFiles,
  shot,
  THEMES,
} from './helpers.js';

keepSettingsForSpec(['defaults', 'usage']);

const SIZES = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];

/** A result file below `dir` (the browser uploads' inbox keeps each upload in a folder of its own). */
function find(dir: string, name: string): string | undefined {
  for (const f of readdirSync(dir)) {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) {
      const inner = find(p, name);
      if (inner) return inner;
    } else if (f === name) return p;
  }
  return undefined;
}

const cueLines = (srt: string): string[][] =>
  srt
    .trim()
    .split(/\n\n+/)
    .map((c) => c.split('\n'));

test('another caption layout is saved beside the main captions; replacing them is asked for', async ({ page }) => {
  test.setTimeout(180_000);
  await bridge('settings:update', {
    patch: { defaults: { recipe: null, output: { formats: ['json', 'srt'] } } },
  });
  await bridge('queue:resume', {});
  const problems = await openApp(page);
  await processFiles([{ name: 'reflow-43.wav', seconds: 12 }]);
  const inbox = path.join(env.state, 'inbox');
  const mainPath = find(inbox, 'reflow-43.srt')!;
  const main = readFileSync(mainPath, 'utf8');

  await page.setViewportSize({ width: 1920, height: 1080 });
  await go(page, 'Queue');
  await jobRow(page, 'reflow-43.wav').dblclick();
  const detail = page.getByTestId('job-detail');
  await detail.getByLabel('Caption layout when saving again').selectOption('broadcast');
  await expect(detail.getByTestId('save-again-hint')).toHaveText('Added beside reflow-43.srt, which stays as it is.');
  await expect(detail.getByLabel('Replace the main captions')).not.toBeChecked();
  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await detail.getByTestId('save-again-hint').scrollIntoViewIfNeeded();
      await shot(page, `43-reflow-beside-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `reflow beside ${scheme} ${size.width}`, '[data-testid=job-detail]');
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await detail.getByRole('button', { name: 'Save results again' }).click();
  // The Broadcast layout beside, listed with the job's results; the main captions as they were.
  await expect(detail.getByText('reflow-43.broadcast.srt')).toBeVisible();
  await expect.poll(() => find(inbox, 'reflow-43.broadcast.srt')).toBeDefined();
  const broadcast = find(inbox, 'reflow-43.broadcast.srt')!;
  expect(path.dirname(broadcast)).toBe(path.dirname(mainPath));
  const cues = cueLines(readFileSync(broadcast, 'utf8'));
  expect(cues.length).toBeGreaterThan(1);
  expect(cues.every((c) => c.slice(2).every((l) => Array.from(l).length <= 37))).toBe(true);
  expect(readFileSync(mainPath, 'utf8')).toBe(main);

  // Replacing: ticked by name, then asked once more; Cancel writes nothing.
  await detail.getByLabel('Caption layout when saving again').selectOption('vertical');
  await detail.getByLabel('Replace the main captions').check();
  await expect(detail.getByTestId('save-again-hint')).toHaveText('Lays out reflow-43.srt anew.');
  await detail.getByRole('button', { name: 'Save results again' }).click();
  const ask = page.getByTestId('confirm-dialog');
  await expect(ask).toContainText('reflow-43.srt will be written over in the Vertical captions (no names) layout');
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await shot(page, `43-reflow-replace-ask-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `reflow replace ask ${scheme} ${size.width}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.keyboard.press('Enter'); // Cancel has focus
  await expect(ask).toBeHidden();
  expect(readFileSync(mainPath, 'utf8')).toBe(main);
  await detail.getByRole('button', { name: 'Save results again' }).click();
  await ask.getByRole('button', { name: 'Replace' }).click();
  await expect.poll(() => readFileSync(mainPath, 'utf8')).not.toBe(main);
  // Vertical: one line of at most 32 characters, no speaker names; the Broadcast file still beside it.
  const replaced = cueLines(readFileSync(mainPath, 'utf8'));
  expect(replaced.every((c) => c.length === 3 && Array.from(c[2]!).length <= 32)).toBe(true);
  expect(find(inbox, 'reflow-43.broadcast.srt')).toBe(broadcast);
  await expect(detail.getByText('reflow-43.broadcast.srt')).toBeVisible();
  expect(problems).toEqual([]);
});

test('Usage offers the currencies the service prices; one it no longer prices says so', async ({ page }) => {
  test.setTimeout(120_000);
  await bridge('settings:update', { patch: { usage: { currency: null } } });
  const priced = await bridge<{ codes: string[] }>('usage:currencies');
  // The sandbox prices a few (its own table), asked of it; far fewer than the ~160 ISO codes.
  expect(priced.codes).toContain('EUR');
  expect(priced.codes).not.toContain('AFN');
  expect(priced.codes.length).toBeLessThan(40);
  const problems = await openApp(page);
  await go(page, 'Usage');
  const select = page.getByLabel('Amounts in');
  await expect(select.locator('option')).toHaveCount(priced.codes.length + 1);
  await expect(select.locator('option').first()).toHaveText('Credits');
  await expect(select.locator('option', { hasText: 'Afghan Afghani' })).toHaveCount(0);
  await expect(page.getByText(`${priced.codes.length} currencies priced by the service`)).toBeVisible();
  await select.selectOption('EUR');
  await expect(page.getByTestId('stat-Cost')).toContainText('EUR');
  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await shot(page, `43-usage-currencies-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `usage currencies ${scheme} ${size.width}`);
    }
  }

  // A currency saved before the service stopped pricing it (here: one it never priced).
  await bridge('settings:update', { patch: { usage: { currency: 'AFN' } } });
  await expect(select).toHaveValue('AFN');
  const note = page.getByTestId('currency-not-priced');
  await expect(note).toHaveText(
    'The service no longer prices usage in Afghan Afghani (AFN). Choose another currency, or Credits.',
  );
  await expect(select).toHaveAttribute('aria-invalid', 'true');
  for (const scheme of THEMES) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await shot(page, `43-usage-currency-not-priced-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `usage currency not priced ${scheme} ${size.width}`);
    }
  }
  // Settings says the same where the currency is typed; choosing Credits there clears it.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await go(page, 'Settings');
  const section = page.getByRole('region', { name: 'Usage' });
  await expect(section.getByRole('alert')).toContainText('no longer prices usage in Afghan Afghani (AFN)');
  await section.scrollIntoViewIfNeeded();
  await shot(page, '43-settings-currency-not-priced-light-1920');
  const field = section.getByRole('combobox', { name: 'Amounts in' });
  await field.fill('Credits');
  await field.press('Tab');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved.').first()).toBeVisible();
  await expect(section.getByRole('alert')).toHaveCount(0);
  expect(problems).toEqual([]);
});
