/// <reference lib="dom" />
// Every file a watch folder leaves is visible with why (issue 40, item 6): a clip cut short before
// its index (no moov), an empty file, a link to a drive that is not there and a card copied to a
// second place. The never-whole delay is set in Settings; the Queue offers Retry and Ignore on the
// clip, the folder's list shows every skip with what to do, Ignore and Stop ignoring by keyboard,
// and the clip is taken once it is whole. The real app on a server of its own; axe in both themes
// at 800×600 and 1920×1080.
import { expect, test, type Page } from '@playwright/test';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeMp4 } from '../helpers/media.js';
import {
  addWatchFolder,
  env,
  expectNoSeriousAxe,
  go,
  jobRow,
  openApp,
  shot,
  useOwnServer,
  writeWav,
} from './helpers.js';

// The delay is changed for the whole server: a server of the spec's own.
useOwnServer();

/** An MP4 as a camera leaves it when its battery dies: the media data, not the index written last. */
function withoutMoov(mp4: Buffer): Buffer {
  for (let at = 0; at + 8 <= mp4.length;) {
    const size = mp4.readUInt32BE(at);
    if (mp4.toString('latin1', at + 4, at + 8) === 'moov') return mp4.subarray(0, at);
    if (size < 8) break;
    at += size;
  }
  throw new Error('the generated MP4 has its index first');
}

const old = (p: string): void => {
  const t = new Date(Date.now() - 3_600_000);
  utimesSync(p, t, t);
};

async function axeEverywhere(page: Page, name: string, scope: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    for (const size of [
      { width: 800, height: 600 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await page.locator(scope).first().scrollIntoViewIfNeeded();
      await shot(page, `${name}-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `${name} ${scheme} ${size.width}`, scope);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('skipped files are listed with why; Retry and Ignore by keyboard; the clip is taken once whole', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const card = path.join(env.work, 'skips-card');
  const first = path.join(card, 'Day1', 'iPhone', 'IMG_0001.WAV');
  mkdirSync(path.dirname(first), { recursive: true });
  writeWav(path.dirname(first), 'IMG_0001.WAV', 2);
  const full = readFileSync(await makeMp4(env.work, 'GX010099-full.MP4', 2));
  const clip = path.join(card, 'GX010099.MP4');
  writeFileSync(clip, withoutMoov(full));
  writeFileSync(path.join(card, 'EMPTY_CARD_ERROR.MP4'), '');
  symlinkSync(path.join(env.work, 'unplugged-drive', 'B-ROLL.mp4'), path.join(card, 'B-ROLL.mp4'));
  for (const p of [first, clip, path.join(card, 'EMPTY_CARD_ERROR.MP4')]) old(p);

  const problems = await openApp(page);
  await go(page, 'Settings');
  // The delay, in minutes: 0.1 (6 s) so the flow does not wait the default 3 minutes.
  const delay = page.getByLabel('Report a file not whole after (min) unchanged');
  await expect(delay).toHaveValue('3');
  await delay.fill('0');
  await delay.press('Tab');
  await page.getByRole('button', { name: 'Save changes' }).click();
  // Refused in main, with what to give.
  await expect(page.locator('#q-incomplete-help')).toHaveText(/Give between 5 seconds and 24 hours/);
  await delay.fill('0.1');
  await delay.press('Tab');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('#q-incomplete-help')).toHaveText(/A clip cut short/);

  const { editor, row } = await addWatchFolder(page, card);
  // Saved: the editor closes (leaving before then would ask about its changes).
  await expect(editor).toHaveCount(0);

  // The first copy is processed; the card is then copied to a second place.
  await go(page, 'Queue');
  await expect(jobRow(page, 'IMG_0001.WAV')).toHaveAttribute('data-state', 'completed', { timeout: 60_000 });
  const backup = path.join(card, 'Backup_Day1', 'iPhone', 'IMG_0001.WAV');
  mkdirSync(path.dirname(backup), { recursive: true });
  copyFileSync(first, backup);
  old(backup);

  // The clip stopped changing and is not whole: said in the Queue with what is wrong.
  const notWhole = page.getByTestId('not-whole');
  await expect(notWhole).toBeVisible({ timeout: 60_000 });
  await expect(notWhole.getByRole('heading')).toHaveText('1 file stopped changing but is not whole');
  const clipItem = notWhole.getByTestId('skipped-file').filter({ hasText: 'GX010099.MP4' });
  await expect(clipItem).toContainText(
    'not a complete MP4: no index (moov); the camera may have stopped mid-recording',
  );
  await expect(page.getByTestId('copying')).toHaveCount(0);
  await axeEverywhere(page, 'skips-queue', '[data-testid=not-whole]');

  // Retry by keyboard: looked at again now; still not whole, it stays listed.
  await clipItem.getByRole('button', { name: 'Retry GX010099.MP4' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Checking GX010099.MP4 again: it is queued at once if it is whole.')).toBeVisible();
  await expect(clipItem).toBeVisible();

  // The folder's list: every skip with its reason and what to do; the rescan counts them.
  await go(page, 'Settings');
  await row.getByRole('button', { name: 'Rescan' }).click();
  await expect(row.getByTestId('rescan-summary')).toHaveText(
    'Rescan: 4 new files — 0 queued, 1 second copy, 1 empty, 1 link to nowhere, 1 not whole; 1 already processed.',
    { timeout: 30_000 },
  );
  const toggle = row.getByTestId('skips-toggle');
  await expect(toggle).toHaveText('Skipped (4)');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const list = row.getByRole('list', { name: 'Files not queued from this folder' });
  const items = list.getByTestId('skipped-file');
  await expect(items).toHaveCount(4);
  await expect(items.nth(0)).toHaveAttribute('data-reason', 'never-whole');
  await expect(list.locator('li[data-reason=empty]')).toContainText('Empty (0 bytes).');
  await expect(list.locator('li[data-reason=dangling-link]')).toContainText('Connect the drive it points to');
  const copy = list.locator('li[data-reason=second-copy]');
  await expect(copy).toContainText(path.join('Backup_Day1', 'iPhone', 'IMG_0001.WAV'));
  await expect(copy).toContainText(`A second copy of ${path.join('Day1', 'iPhone', 'IMG_0001.WAV')}`);
  await axeEverywhere(page, 'skips-folder', '[data-testid=folder-skips]');

  // Ignore by keyboard: listed as ignored, focus on Stop ignoring; the Queue no longer shows it.
  const clipRow = list.locator('[data-name="GX010099.MP4"]');
  await clipRow.getByRole('button', { name: 'Ignore GX010099.MP4' }).focus();
  await page.keyboard.press('Enter');
  await expect(clipRow).toHaveAttribute('data-reason', 'ignored');
  await expect(clipRow.getByRole('button', { name: 'Stop ignoring GX010099.MP4' })).toBeFocused();
  await expect(clipRow).toContainText('Ignored by you.');
  await shot(page, 'skips-ignored');
  await go(page, 'Queue');
  await expect(page.getByTestId('not-whole')).toHaveCount(0);

  // Undone by keyboard: reported again.
  await go(page, 'Settings');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await clipRow.getByRole('button', { name: 'Stop ignoring GX010099.MP4' }).focus();
  await page.keyboard.press('Enter');
  await expect(clipRow).toHaveAttribute('data-reason', 'never-whole');
  await expect(clipRow.getByRole('button', { name: 'Ignore GX010099.MP4' })).toBeFocused();
  // Ignore's notice (with its Undo) goes with the ignore.
  await expect(page.getByText('GX010099.MP4 is ignored until it changes.')).toHaveCount(0);

  // The index arrives (the clip recovered and copied again): taken at once, and processed.
  writeFileSync(clip, full);
  await go(page, 'Queue');
  await expect(jobRow(page, 'GX010099.MP4')).toHaveAttribute('data-state', 'completed', { timeout: 60_000 });
  await expect(page.getByTestId('not-whole')).toHaveCount(0);
  await shot(page, 'skips-clip-taken');
  expect(problems).toEqual([]);
});
