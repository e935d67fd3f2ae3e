/// <reference lib="dom" />
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  env,
  focused,
  go,
  jobRow,
  LONG_NAMES,
  openApp,
  resumeQueueAfterSpec,
  seedScreens,
  shot,
  THEMES,
} from './helpers.js';

resumeQueueAfterSpec();

// Focus is always somewhere useful and always visible: dialogs take and return it, actions that
// remove what had focus hand it on, and the ring stands out from its background (≥ 3:1).

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  await seedScreens(page);
  await page.close();
});

/** The focus ring's colour (outline, else box-shadow) blended over what is behind it, and its contrast. */
async function ringContrast(page: Page): Promise<{ what: string; ratio: number } | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const parse = (c: string): number[] | null => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const p = m[1]!
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0]!, p[1]!, p[2]!, p[3] ?? 1];
    };
    const bgOf = (start: Element | null): number[] => {
      for (let n = start; n; n = n.parentElement) {
        const c = parse(getComputedStyle(n).backgroundColor);
        if (c && c[3]! > 0.99) return c;
      }
      return [255, 255, 255, 1];
    };
    const cs = getComputedStyle(el);
    let ring: number[] | null = null;
    if (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) ring = parse(cs.outlineColor);
    else if (cs.boxShadow !== 'none') ring = parse(cs.boxShadow);
    if (!ring) return { what: el.outerHTML.slice(0, 80), ratio: 0 };
    const lum = (c: number[]): number => {
      const f = (v: number): number => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(c[0]!) + 0.7152 * f(c[1]!) + 0.0722 * f(c[2]!);
    };
    let worst = Infinity;
    // An outline drawn apart from the element (offset) lies on the surrounding background only;
    // one drawn on its edge (or a box-shadow ring) touches the element's own background too.
    const apart = cs.outlineStyle !== 'none' && parseFloat(cs.outlineOffset) >= 1;
    for (const bg of apart ? [bgOf(el.parentElement)] : [bgOf(el), bgOf(el.parentElement)]) {
      const a = ring[3]!;
      const seen = [0, 1, 2].map((i) => ring[i]! * a + bg[i]! * (1 - a));
      const [l1, l2] = [lum(seen), lum(bg)];
      worst = Math.min(worst, (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05));
    }
    return {
      what: `${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30)}`,
      ratio: worst,
    };
  });
}

for (const theme of THEMES) {
  test(`the focus ring has at least 3:1 against its background (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await openApp(page);
    const weak: string[] = [];
    let checked = 0;
    for (const screen of ['Queue', 'Settings'] as const) {
      await go(page, screen);
      await page.locator('h1').click();
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press('Tab');
        const r = await ringContrast(page);
        if (!r) continue;
        checked++;
        if (r.ratio < 3) weak.push(`${screen}: ${r.what} ${r.ratio.toFixed(2)}:1`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(weak).toEqual([]);
  });
}

test('the shortcuts dialog takes focus, keeps it, and gives it back', async ({ page }) => {
  await openApp(page);
  const opener = page.getByRole('button', { name: /Shortcuts|Keyboard shortcuts/ }).first();
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  // Opened with "?" from the job list: focus comes back to the list.
  await go(page, 'Queue');
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await grid.focus();
  await page.keyboard.press('?');
  await expect(dialog).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(grid).toBeFocused();
});

test('adding, saving and removing a watch folder never leaves focus on the page body', async ({ page }) => {
  const dir = path.join(env.work, 'focus-folder');
  mkdirSync(dir, { recursive: true });
  await openApp(page);
  await go(page, 'Settings');
  await page.getByRole('button', { name: 'Add folder' }).click();
  await page.getByLabel('Folder', { exact: true }).fill(dir);
  await page.getByTestId('folder-editor').getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByText(`Watching ${dir}`)).toBeVisible();
  const item = page.getByTestId('watch-folder').filter({ hasText: dir });
  await expect(item.getByRole('button', { name: 'Edit' })).toBeFocused();

  await item.getByRole('button', { name: 'Edit' }).click();
  await item.getByRole('button', { name: 'Save folder' }).click();
  await expect(item.getByRole('button', { name: 'Edit' })).toBeFocused();

  // Removing asks first, in a dialog that holds focus; Cancel gives it back to the button.
  const remove = item.getByRole('button', { name: `Remove ${dir}` });
  await remove.click();
  const confirm = page.getByRole('alertdialog', { name: 'Stop watching this folder?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await shot(page, 'focus-confirm-remove-folder');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await confirm.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(remove).toBeFocused();
  await remove.click();
  await confirm.getByRole('button', { name: 'Stop watching' }).click();
  await expect(item).toHaveCount(0);
  await expect.poll(() => focused(page)).not.toBe('<body>');
  await expect(page.getByRole('button', { name: 'Add folder' })).toBeFocused();
});

test('Space acts on the selected row, not the whole queue; Delete can be undone', async ({ page }) => {
  // The page's clock runs as usual, and jumps past Undo's time when the test says so.
  await page.clock.install();
  await openApp(page);
  await go(page, 'Queue');
  const paused = await page.getByTestId('pause-banner').isVisible();
  const row = jobRow(page, 'seed-short.wav');
  await row.click();
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await grid.focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('job-detail')).toBeVisible();
  await expect(page.getByTestId('job-detail').getByRole('heading', { name: 'seed-short.wav' })).toBeVisible();
  await expect(page.getByTestId('pause-banner')).toHaveCount(paused ? 1 : 0);
  await page.keyboard.press('Space');
  await expect(page.getByTestId('job-detail')).toHaveCount(0);
  await expect(page.getByTestId('pause-banner')).toHaveCount(paused ? 1 : 0);

  // Delete takes the row away at once, with Undo.
  await page.keyboard.press('Delete');
  await expect(row).toHaveCount(0);
  await expect(grid).toBeFocused();
  const toast = page.getByRole('status').filter({ hasText: 'Removed seed-short.wav' });
  await expect(toast).toBeVisible();
  await shot(page, 'queue-undo-toast');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(row).toBeVisible();
  // Removing from the detail panel hands focus to the list, and the removal holds after Undo's time.
  await row.dblclick();
  await page.getByTestId('job-detail').getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0);
  await expect(grid).toBeFocused();
  // Past Undo's time the removal goes out; the list after a reload holds it.
  const dismissed = page.waitForResponse((r) => decodeURIComponent(r.url()).endsWith('queue:dismiss'));
  await page.clock.fastForward(7_000);
  expect((await dismissed).ok()).toBe(true);
  await page.reload();
  await expect(jobRow(page, LONG_NAMES[0]!)).toBeVisible();
  await expect(row).toHaveCount(0);
});
