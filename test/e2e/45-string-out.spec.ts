/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// The string-out screen (issue 45), by keyboard alone: reached with Ctrl+5; a bite moved with
// Alt+↓, trimmed a word from its start, relabelled, deleted and brought back with Undo; recoloured
// and noted (the note's Undo); a gap and a title card added after the focused row (the total counts
// them; the title card deleted from its row); the list
// exported from the dialog into a folder (every file on disk), and a folder that is not one refused
// with what to do. axe with no serious finding in light and dark at 800×600 and 1920×1080.
import { expect, test, type Page } from '@playwright/test';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { SelectListView } from '../../preload/contract.js';
import { bridge, env, expectNoSeriousAxe, keepSettingsForSpec, openApp, processFiles, shot } from './helpers.js';

keepSettingsForSpec(['defaults']);

const LIST = 'Screen cut';
const listNow = (): Promise<SelectListView> => bridge<SelectListView>('selects:open', { list: LIST });

async function press(page: Page, selector: string, key = 'Enter'): Promise<void> {
  // A row's buttons wait while the last change is on its way (the list said it is saved before the
  // screen has its answer): a key pressed on a disabled button would go nowhere.
  await expect(page.locator('[data-testid=selects-screen] [aria-busy=true]')).toHaveCount(0);
  await page.locator(selector).focus();
  await page.keyboard.press(key);
}

test('a string-out reordered, trimmed, relabelled, deleted and exported by keyboard', async ({ page }) => {
  test.setTimeout(240_000);
  const [job] = await processFiles([{ name: 'string-out talk.wav', seconds: 20 }]);
  expect(job?.state).toBe('completed');
  for (const [from, to] of [
    [0, 3],
    [4, 7],
    [8, 10],
  ] as const) {
    await bridge('selects:add', { list: LIST, jobId: job!.id, from, to });
  }
  const start = await listNow();
  expect(start.selects).toHaveLength(3);
  await page.addInitScript((name) => localStorage.setItem('sluice-selects-list', name), LIST);
  await page.setViewportSize({ width: 1920, height: 1080 });
  const problems = await openApp(page);

  await page.keyboard.press('Control+5');
  const screen = page.getByTestId('selects-screen');
  await expect(screen.getByRole('heading', { level: 1, name: 'Selects' })).toBeVisible();
  await expect(screen.getByTestId('selects-total')).toContainText('3 bites');
  const [a, b, c] = start.selects as [
    SelectListView['selects'][number],
    SelectListView['selects'][number],
    SelectListView['selects'][number],
  ];
  await expect(screen.locator(`[data-select-id="${a.id}"]`)).toContainText(a.sourceIn!);

  // Alt+↓ on the first bite: it plays second now, and keeps focus.
  await press(page, `[data-select-id="${a.id}"] .label-btn`, 'Alt+ArrowDown');
  await expect.poll(async () => (await listNow()).selects.map((s) => s.id)).toEqual([b.id, a.id, c.id]);
  await expect(screen.locator(`[data-select-id="${a.id}"]`).locator(':focus')).toHaveCount(1);

  // A word off its start.
  await press(page, `[data-select-id="${a.id}"] button:has-text("Trim start")`);
  await expect
    .poll(async () => (await listNow()).selects.find((s) => s.id === a.id)?.words)
    .toEqual([a.words![0] + 1, a.words![1]]);

  // Relabelled in place.
  await press(page, `[data-select-id="${b.id}"] .label-btn`);
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Opening');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await listNow()).selects[0]?.label).toBe('Opening');
  await expect(screen.locator(`[data-select-id="${b.id}"] .label-btn`)).toBeFocused();

  // Deleted, then Undo from the notice.
  await press(page, `[data-select-id="${c.id}"] button[aria-label="Delete bite 3"]`);
  await expect.poll(async () => (await listNow()).selects.length).toBe(2);
  await press(page, '.toast:has-text("Deleted") button:has-text("Undo")');
  await expect.poll(async () => (await listNow()).selects.map((s) => s.id)).toEqual([b.id, a.id, c.id]);
  await expect(screen.getByTestId('selects-total')).toContainText('3 bites');

  // Colour by keyboard (the menu's first letter), and a note typed in place, then its Undo.
  await press(page, `[data-select-id="${b.id}"] .colour-pick`, 'p');
  await expect.poll(async () => (await listNow()).selects[0]?.colour).toBe('Purple');
  await press(page, `[data-select-id="${b.id}"] .note-btn`);
  await page.keyboard.type('Use the wide');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await listNow()).selects[0]?.note).toBe('Use the wide');
  await expect(screen.locator(`[data-select-id="${b.id}"] [data-testid=select-note]`)).toHaveText('Note: Use the wide');
  await press(page, '.toast:has-text("Note on") button:has-text("Undo")');
  await expect.poll(async () => (await listNow()).selects[0]?.note).toBe('');
  await expect(screen.locator(`[data-select-id="${b.id}"] [data-testid=select-note]`)).toHaveCount(0);

  // A gap after the first bite (the row that had focus), then a title card after the gap.
  const before = await listNow();
  await page.locator(`[data-select-id="${b.id}"] .label-btn`).focus();
  await press(page, '[data-testid=add-gap]');
  await expect.poll(async () => (await listNow()).spacers?.map((x) => [x.kind, x.index])).toEqual([['gap', 1]]);
  await press(page, '[data-testid=add-title]');
  await expect(page.locator('input[id^="title-"]')).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Part two');
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await listNow()).spacers?.map((x) => [x.kind, x.index, x.text ?? '']))
    .toEqual([
      ['gap', 1, ''],
      ['title', 2, 'Part two'],
    ]);
  const now = await listNow();
  expect(now.totalMs).toBe(before.totalMs + 5000);
  expect(now.selects[1]!.recordInMs).toBe(before.selects[1]!.recordInMs! + 5000);
  await expect(screen.getByTestId('selects-total')).toContainText('3 bites + 2 gaps/titles');
  await expect(screen.locator('li').nth(2)).toContainText('TITLE: Part two');

  for (const size of [
    { width: 800, height: 600 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      await expectNoSeriousAxe(page, `string-out ${size.width}×${size.height} ${theme}`);
      await shot(page, `selects-screen-${size.width}-${theme}`);
    }
  }

  // The title card deleted from its row by keyboard: the gap stays, the total gives its 3 s back.
  await press(page, 'button[aria-label="Delete the title card at row 3"]');
  await expect.poll(async () => (await listNow()).spacers?.map((x) => x.kind)).toEqual(['gap']);
  expect((await listNow()).totalMs).toBe(before.totalMs + 2000);

  // Export: a folder that is not one is refused with what to do; then every file is written.
  await press(page, 'button:has-text("Export…")');
  const dialog = page.getByTestId('selects-export');
  await expect(dialog).toBeVisible();
  await expectNoSeriousAxe(page, 'export dialog (dark)');
  await shot(page, 'selects-export-dark');
  const out = path.join(env.work, 'string-out-cuts');
  await press(page, '#export-folder');
  await page.keyboard.type(path.join(out, 'not-yet'));
  await press(page, '[data-testid=selects-export] button:has-text("Export")');
  await expect(dialog.getByRole('alert')).toContainText('is not a folder on this computer: choose another');
  await expect(page.locator('#export-folder')).toHaveValue(path.join(out, 'not-yet'));
  mkdirSync(out, { recursive: true });
  await page.locator('#export-folder').focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(out);
  await press(page, '[data-testid=selects-export] button:has-text("Export")');
  await expect(dialog.getByTestId('export-done')).toContainText('Wrote 6 files with 3 bites');
  for (const end of ['.otio', '.fcpxml', '.premiere.xml', '.edl', '.script.docx', '.script.txt']) {
    expect(existsSync(path.join(out, `${LIST}${end}`)), end).toBe(true);
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  await expectNoSeriousAxe(page, 'export dialog done (light)');
  await shot(page, 'selects-export-done-light');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(problems).toEqual([]);
});
