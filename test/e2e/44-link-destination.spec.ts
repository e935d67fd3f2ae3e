// Where a link's results go (the walkthrough's S3-11), from the keyboard alone: the Add-link
// dialog offers Downloads (saying it will be created), the output folder of a watch folder by its
// name, or another folder; a folder that is not there is refused before anything is sent, the
// results land in the one chosen, and the dialog opens on it next time. Light and dark at 800 × 600
// and 1920 × 1080, axe clean. A server of its own: a fresh state, its Downloads folder a temp path.
import { expect, test, type Page } from '@playwright/test';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMediaServer, type MediaServer } from '../helpers/media-server.js';
import {
  bridge,
  env,
  expectNoSeriousAxe,
  go,
  jobRow,
  openApp,
  shot,
  THEMES,
  toneWav,
  useOwnServer,
} from './helpers.js';

let server: MediaServer;
let out = '';
let downloads = '';
let folderId = '';
const savedXdg = process.env.XDG_DOWNLOAD_DIR;

// Before the server of its own starts, so that it reads this Downloads folder.
test.beforeAll(() => {
  downloads = path.join(env.work, `link-dest-downloads-${process.pid}`);
  process.env.XDG_DOWNLOAD_DIR = downloads;
});
test.afterAll(() => {
  if (savedXdg === undefined) delete process.env.XDG_DOWNLOAD_DIR;
  else process.env.XDG_DOWNLOAD_DIR = savedXdg;
});

useOwnServer();

test.beforeAll(async () => {
  const media = path.join(env.work, 'link-dest-media');
  const watched = path.join(env.work, `link-dest-${process.pid}`, 'Harbour shoot');
  out = path.join(env.work, `link-dest-${process.pid}`, 'Transcripts');
  for (const d of [media, watched, out]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(media, 'harbour-vo.wav'), toneWav(1, 523));
  server = await startMediaServer(media);
  const folder = await bridge<{ id: string }>('folders:add', { folder: { path: watched, outputDir: out } });
  folderId = folder.id;
});
test.afterAll(() => server?.close());

const dialogOf = (page: Page) => page.getByRole('dialog', { name: 'Add media links' });
const place = (page: Page) => dialogOf(page).getByRole('combobox', { name: 'Save the results in' });

async function openDialog(page: Page): Promise<void> {
  await go(page, 'Queue');
  await page.getByRole('button', { name: 'Add link', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(dialogOf(page)).toBeVisible();
  await expect(dialogOf(page).getByRole('textbox', { name: 'Links' })).toBeFocused();
  // The places are there once main has listed them.
  await expect(place(page)).toBeEnabled();
}

test('a link’s results go where the editor chose, checked before anything is sent, and kept', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  const problems = await openApp(page);
  await openDialog(page);
  await page.keyboard.insertText(`${server.url}/harbour-vo.wav`);

  // Downloads first, saying it is not there yet.
  await page.keyboard.press('Tab');
  await expect(place(page)).toBeFocused();
  await expect(place(page)).toHaveValue('downloads');
  await expect(dialogOf(page)).toContainText(`${downloads} — does not exist yet: it will be created.`);

  // Another folder, typed, that is not there: refused in words, nothing queued, nothing made.
  await page.keyboard.press('End');
  await expect(place(page)).toHaveValue('folder');
  await page.keyboard.press('Tab');
  const typed = dialogOf(page).getByRole('textbox', { name: 'Folder' });
  await expect(typed).toBeFocused();
  const missing = path.join(env.work, `link-dest-${process.pid}`, 'Not there');
  await page.keyboard.insertText(missing);
  await page.keyboard.press('Enter');
  const alert = dialogOf(page).getByRole('alert');
  await expect(alert).toHaveText(
    `${missing} does not exist. Create it (or connect its drive), or choose another place.`,
  );
  await expect(typed).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'link-destination-refused-light-800');
  expect((await bridge<{ jobs: unknown[] }>('queue:snapshot')).jobs).toEqual([]);
  expect(existsSync(missing)).toBe(false);

  // The watch folder's output folder, by its name: the results land there.
  await page.keyboard.press('Shift+Tab');
  await expect(place(page)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(place(page)).toHaveValue(`watch-folder:${folderId}`);
  await expect(place(page).locator('option:checked')).toHaveText('Output folder of “Harbour shoot”');
  await expect(dialogOf(page)).toContainText(out);
  await shot(page, 'link-destination-watch-folder-light-800');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Control+Enter');
  await expect(dialogOf(page)).toBeHidden();
  await expect(jobRow(page, 'harbour-vo.wav')).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
  await expect.poll(() => readdirSync(out)).toContain('harbour-vo.json');
  expect(existsSync(downloads)).toBe(false);

  // Next time the dialog opens on it.
  await openDialog(page);
  await expect(place(page)).toHaveValue(`watch-folder:${folderId}`);
  await page.keyboard.press('Escape');
  await expect(dialogOf(page)).toBeHidden();
  expect(problems).toEqual([]);
});

for (const size of [
  { name: '800', width: 800, height: 600 },
  { name: '1920', width: 1920, height: 1080 },
]) {
  for (const theme of THEMES) {
    test(`the dialog reads whole and is axe clean (${theme}, ${size.width}×${size.height})`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: theme });
      await openApp(page);
      await openDialog(page);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Home');
      await expect(dialogOf(page)).toContainText('it will be created');
      // The dialog fits the window: nothing of it is cut.
      const box = await dialogOf(page).boundingBox();
      expect(
        box && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height,
      ).toBe(true);
      await expectNoSeriousAxe(page, `add-link ${theme} ${size.name}`);
      await shot(page, `link-destination-${theme}-${size.name}`);
      await page.keyboard.press('Escape');
      await expect(dialogOf(page)).toBeHidden();
    });
  }
}
