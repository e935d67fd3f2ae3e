// Media links from the browser: the links folder chosen in Settings, then "Add link" driven by the
// keyboard alone. The links point at a small HTTP server on loopback serving generated media, which
// the embedded sandbox fetches as the service would; a 404 and a text file fail in plain words.
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMediaServer, type MediaServer } from '../helpers/media-server.js';
import { axe, env, go, jobRow, openApp, resumeQueueAfterSpec, shot, SIZES, steadyForAxe, THEMES } from './helpers.js';

resumeQueueAfterSpec();

let server: MediaServer;
let base = '';
let results = '';

test.beforeAll(async () => {
  const media = path.join(env.work, 'link-media');
  results = path.join(env.work, 'link-results');
  mkdirSync(media, { recursive: true });
  mkdirSync(results, { recursive: true });
  for (const [name, hz] of [
    ['link-interview.wav', 440],
    ['link-briefing.wav', 550],
    ['link-street.wav', 660],
  ] as const) {
    execFileSync('sox', ['-n', '-r', '16000', '-c', '1', path.join(media, name), 'synth', '1', 'sine', String(hz)]);
  }
  writeFileSync(path.join(media, 'link-notes.txt'), 'Meeting notes, not a recording.\n'.repeat(40));
  server = await startMediaServer(media);
  base = server.url;
});

test.afterAll(() => server.close());

const dialogOf = (page: Page) => page.getByRole('dialog', { name: 'Add media links' });

/** Opens "Add link" from the Queue with the keyboard; the box has focus. */
async function openDialog(page: Page): Promise<void> {
  await go(page, 'Queue');
  const banner = page.getByTestId('pause-banner');
  if (await banner.isVisible()) await banner.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('button', { name: 'Add link', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(dialogOf(page)).toBeVisible();
  await expect(dialogOf(page).getByRole('textbox', { name: 'Links' })).toBeFocused();
}

/** Replaces the box's text as a paste would, then adds with Ctrl+Enter. */
async function pasteAndAdd(page: Page, lines: string[]): Promise<void> {
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(lines.join('\n'));
  await page.keyboard.press('Control+Enter');
}

/**
 * Pastes a link processed before, so the dialog refuses it. A test after a failed one runs in a
 * new worker, whose server has another port: there the link is new, so it is processed first.
 */
async function refuseProcessed(page: Page, link: string): Promise<void> {
  await pasteAndAdd(page, [link]);
  const refused = dialogOf(page).getByRole('status');
  await expect(refused.or(page.getByText('Queued 1 link.'))).toBeVisible();
  if (await refused.isVisible()) return;
  const name = path.basename(new URL(link).pathname);
  await expect(page.locator(`[data-testid=job-row][data-name="${name}"]:not([data-state=completed])`)).toHaveCount(0, {
    timeout: 45_000,
  });
  await openDialog(page);
  await pasteAndAdd(page, [link]);
  await expect(refused).toBeVisible();
}

const resultNames = (): string[] => readdirSync(results).sort();

test('the links folder is set in Settings, and shown where links are added', async ({ page }) => {
  const problems = await openApp(page);
  await go(page, 'Settings');
  const section = page.getByRole('region', { name: 'Media links' });
  const folder = section.getByRole('textbox', { name: 'Results folder' });
  // A relative folder is refused by main, next to the field.
  await folder.fill('link-results');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(section.getByRole('alert')).toContainText('must be a full folder path');
  await expect(folder).toHaveAttribute('aria-invalid', 'true');
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'settings-links-invalid');
  await folder.fill(results);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved.').first()).toBeVisible();
  await expect(section.getByRole('alert')).toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'settings-links');

  await openDialog(page);
  // The dialog opens on the folder kept in Settings (a folder of one's own, typed).
  await expect(dialogOf(page).getByRole('combobox', { name: 'Save the results in' })).toHaveValue('folder');
  await expect(dialogOf(page).getByRole('textbox', { name: 'Folder' })).toHaveValue(results);
  await page.keyboard.press('Escape');
  await expect(dialogOf(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Add link', exact: true })).toBeFocused();
  expect(problems).toEqual([]);
});

test('one link, then several with a bad line and a duplicate: queued, completed, written to the links folder', async ({
  page,
}) => {
  const problems = await openApp(page);
  await openDialog(page);
  await pasteAndAdd(page, [`${base}/link-interview.wav`]);
  await expect(dialogOf(page)).toBeHidden();
  await expect(page.getByText('Queued 1 link.')).toBeVisible();
  await expect(jobRow(page, 'link-interview.wav')).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
  await expect.poll(resultNames).toContain('link-interview.json');

  // Several at once: the line that is no link is shown and nothing is queued until it is gone.
  await openDialog(page);
  const several = [
    `${base}/link-briefing.wav`,
    'briefing notes',
    `${base}/link-briefing.wav`,
    `${base}/link-street.wav`,
  ];
  await pasteAndAdd(page, several);
  const dialog = dialogOf(page);
  await expect(dialog.getByRole('alert')).toHaveText('Line 2, “briefing notes”, is not an http:// or https:// link.');
  await expect(dialog.getByRole('textbox', { name: 'Links' })).toHaveAttribute('aria-invalid', 'true');
  await expect(jobRow(page, 'link-briefing.wav')).toHaveCount(0);
  await shot(page, 'add-links-problem');
  await pasteAndAdd(
    page,
    several.filter((l) => l.startsWith('http')),
  );
  await expect(dialog).toBeHidden();
  // The duplicate is one job.
  await expect(page.getByText('Queued 2 links.')).toBeVisible();
  await expect(page.getByText('1 already queued or done — skipped.')).toBeVisible();
  await expect(jobRow(page, 'link-briefing.wav')).toHaveCount(1);
  for (const n of ['link-briefing.wav', 'link-street.wav']) {
    await expect(jobRow(page, n)).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
  }
  await expect.poll(resultNames).toEqual(expect.arrayContaining(['link-briefing.json', 'link-street.json']));
  expect(problems).toEqual([]);
});

test('a link already processed is refused unless "Process again" is ticked', async ({ page }) => {
  const problems = await openApp(page);
  await openDialog(page);
  const dialog = dialogOf(page);
  await pasteAndAdd(page, [`${base}/link-interview.wav`]);
  // Kept in the box, with why and what to do.
  await expect(dialog.getByRole('status')).toContainText('This link was processed already');
  await expect(dialog.getByRole('textbox', { name: 'Links' })).toHaveValue(`${base}/link-interview.wav`);
  await expect(jobRow(page, 'link-interview.wav')).toHaveAttribute('data-state', 'completed');
  await shot(page, 'add-links-already-done');
  // From the box past where the results go (the kept folder: the choice, its field, Browse…) to the tick box.
  await expect(dialog.getByRole('textbox', { name: 'Folder' })).toHaveValue(results);
  for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
  await expect(dialog.getByRole('checkbox', { name: /Process again/ })).toBeFocused();
  await page.keyboard.press('Space');
  for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('textbox', { name: 'Links' })).toBeFocused();
  await page.keyboard.press('Control+Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Queued 1 link.')).toBeVisible();
  // A new job beside the finished one.
  const rows = jobRow(page, 'link-interview.wav');
  await expect(rows).toHaveCount(2);
  for (const i of [0, 1]) await expect(rows.nth(i)).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
  expect(problems).toEqual([]);
});

test('a link that cannot be fetched, and one that is no media, fail with the reason in plain words', async ({
  page,
}) => {
  const problems = await openApp(page);
  await openDialog(page);
  await pasteAndAdd(page, [`${base}/link-missing.wav`, `${base}/link-notes.txt`]);
  await expect(dialogOf(page)).toBeHidden();
  const missing = jobRow(page, 'link-missing.wav');
  const notes = jobRow(page, 'link-notes.txt');
  await expect(missing).toHaveAttribute('data-state', 'failed', { timeout: 45_000 });
  await expect(notes).toHaveAttribute('data-state', 'failed', { timeout: 45_000 });
  await expect(missing).toContainText('The service could not download this link: HTTP 404 Not Found.');
  await expect(notes).toContainText('This link does not lead to audio or video');
  for (const [row, next] of [
    [missing, 'Check that the link opens in a browser'],
    [notes, 'Copy the link of the media file itself'],
  ] as const) {
    await row.click();
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('job-detail');
    await expect(detail.getByTestId('next-step')).toContainText(next);
    await expect(detail.getByRole('alert')).not.toContainText('damaged');
  }
  await shot(page, 'queue-link-failed');
  expect(resultNames()).not.toContain('link-missing.json');
  expect(problems).toEqual([]);
});

for (const theme of THEMES) {
  for (const size of SIZES) {
    test(`Add link has no serious or critical axe finding (${theme}, ${size.width}×${size.height})`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      const problems = await openApp(page);
      await openDialog(page);
      // With every message the dialog can show: a problem, and a link already processed.
      await pasteAndAdd(page, [`${base}/link-street.wav`, 'not a link']);
      await expect(dialogOf(page).getByRole('alert')).toBeVisible();
      await refuseProcessed(page, `${base}/link-street.wav`);
      await shot(page, `add-links-${theme}-${size.name}`);
      await steadyForAxe(page);
      const result = await axe(page).analyze();
      const bad = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(bad).toEqual([]);
      await page.keyboard.press('Escape');
      await go(page, 'Settings');
      await page.getByRole('region', { name: 'Media links' }).scrollIntoViewIfNeeded();
      await shot(page, `settings-links-${theme}-${size.name}`);
      expect(problems).toEqual([]);
    });
  }
}
