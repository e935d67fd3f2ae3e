// More of an editor's first hour: results taken home from the browser, a watch folder's copy in
// progress and its Rescan, media with no speech, re-exporting chosen formats, and a folder's
// unsaved edits. Media is generated here (espeak-ng, sox), never downloaded.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { axe, dropFiles, env, go, openApp, resumeQueueAfterSpec, shot, steadyForAxe, toneWav } from './helpers.js';

resumeQueueAfterSpec();

const row = (page: Page, name: string) => page.locator(`[data-testid=job-row][data-name="${name}"]`);
const historyRow = (page: Page, name: string) => page.locator(`[data-testid=history-row][data-name="${name}"]`);
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name });

function mediaDir(): string {
  const dir = path.join(env.work, 'media-09');
  mkdirSync(dir, { recursive: true });
  return dir;
}
/** A folder only these flows watch. */
function watchDir(): string {
  const dir = path.join(env.work, 'watch-09');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Spoken words (espeak-ng), 16 kHz mono WAV. */
function speech(name: string, words: string): string {
  const file = path.join(mediaDir(), name);
  execFileSync('espeak-ng', ['-w', file, words]);
  return file;
}
/** Room tone with nothing in it (sox), 16-bit mono WAV. */
function silence(dir: string, name: string, seconds: number): string {
  const file = path.join(dir, name);
  execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', file, 'trim', '0', String(seconds)]);
  return file;
}
const asDrop = (name: string, file: string) => ({
  name,
  mimeType: 'audio/wav',
  base64: readFileSync(file).toString('base64'),
});

/** Where a file of that exact name lies under `dir`, if anywhere. */
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

/** "12.3 kB so far" → bytes. */
function shownBytes(text: string): number {
  const m = /([\d.]+)\s*(B|kB|KB|MB|GB)/.exec(text);
  if (!m) return NaN;
  const unit = { B: 1, kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9 }[m[2] as 'B'];
  return Number(m[1]) * unit;
}

/** Earlier flows may leave the queue paused: these need it running. */
async function running(page: Page): Promise<void> {
  await go(page, 'Queue');
  const banner = page.getByTestId('pause-banner');
  if (await banner.isVisible()) {
    await banner.getByRole('button', { name: 'Resume' }).click();
    await expect(banner).toBeHidden();
  }
}

/** The watch folder of these flows, added once through Settings. */
async function watchFolder(page: Page): Promise<Locator> {
  const dir = watchDir();
  await go(page, 'Settings');
  const folders = page.getByRole('region', { name: 'Watch folders' });
  const item = folders.getByTestId('watch-folder').filter({ hasText: dir });
  // The list comes with the settings: counted only once they are on screen.
  await expect(folders.getByRole('button', { name: 'Add folder' })).toBeVisible();
  if ((await item.count()) === 0) {
    await folders.getByRole('button', { name: 'Add folder' }).click();
    const editor = folders.getByTestId('folder-editor');
    await editor.getByRole('textbox', { name: 'Folder', exact: true }).fill(dir);
    await editor.getByRole('button', { name: 'Add folder' }).click();
    await expect(item).toHaveCount(1);
  }
  return item;
}

async function downloaded(page: Page, button: Locator): Promise<{ name: string; bytes: Buffer }> {
  const download = page.waitForEvent('download');
  await button.click();
  const d = await download;
  return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
}

test('a dropped file’s result downloads from the Queue and from History, its Unicode name kept exactly', async ({
  page,
}) => {
  const problems = await openApp(page);
  await running(page);
  const name = 'Zoë – entrevista São Paulo 東京 №2.wav';
  const json = 'Zoë – entrevista São Paulo 東京 №2.json';
  const file = speech('unicode-source.wav', 'Good morning. The council meets at nine to vote on the tram line.');
  await dropFiles(page, [asDrop(name, file)]);
  await expect(row(page, name)).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
  // Web uploads land in the state folder's inbox; the results are written beside them there.
  const onDisk = find(path.join(env.state, 'inbox'), json);
  expect(onDisk, 'the result beside the upload').toBeDefined();

  await row(page, name).dblclick();
  const fromQueue = await downloaded(
    page,
    page.getByTestId('job-detail').getByRole('button', { name: `Download ${json}` }),
  );
  expect(fromQueue.name).toBe(json);
  expect(fromQueue.bytes.equals(readFileSync(onDisk ?? ''))).toBe(true);

  await go(page, 'History');
  await page.getByRole('searchbox', { name: 'Search file names' }).fill('entrevista');
  await historyRow(page, name).click();
  const detail = page.getByTestId('history-detail');
  await expect(detail.getByRole('heading', { name })).toBeVisible();
  const fromHistory = await downloaded(page, detail.getByRole('button', { name: `Download ${json}` }));
  expect(fromHistory.name).toBe(json);
  expect(fromHistory.bytes.equals(readFileSync(onDisk ?? ''))).toBe(true);
  await shot(page, 'history-download-unicode');
  expect(problems).toEqual([]);
});

test('Re-export results… writes the formats chosen: the job’s checked, JSON kept, Markdown without a summary refused', async ({
  page,
}) => {
  const problems = await openApp(page);
  await running(page);
  const file = speech('reexport-take.wav', 'The river is high this morning and the bridge is closed.');
  await dropFiles(page, [asDrop('reexport-take.wav', file)]);
  await expect(row(page, 'reexport-take.wav')).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });

  await go(page, 'History');
  await page.getByRole('searchbox', { name: 'Search file names' }).fill('reexport-take');
  await historyRow(page, 'reexport-take.wav').click();
  const detail = page.getByTestId('history-detail');
  await detail.getByRole('button', { name: 'Re-export results…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Re-export results' });
  await expect(dialog.getByRole('button', { name: 'Re-export', exact: true })).toBeFocused();
  const box = (label: string) => dialog.getByRole('checkbox', { name: label });
  await expect(box('JSON (full result)')).toBeChecked();
  await expect(box('JSON (full result)')).toBeDisabled();
  // The default template asks for no summary: Markdown would be empty, and says why it is off.
  await expect(box('Markdown')).toBeDisabled();
  await expect(box('Markdown')).toHaveAccessibleDescription(/No summary, sentiment or answers/);
  for (const f of ['SRT captions', 'Plain text']) await box(f).check();
  for (const f of ['WebVTT captions', 'CSV', 'Word document']) await box(f).uncheck();
  await shot(page, 'history-reexport-dialog');
  // Focus stays inside while it is open.
  for (let i = 0; i < 10; i++) await page.keyboard.press('Tab');
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await dialog.getByRole('button', { name: 'Re-export', exact: true }).click();
  await expect(page.getByText('Saved 3 result files again.')).toBeVisible();
  // The job's results are now these three (files of other formats written earlier stay on disk).
  await expect(detail.getByRole('button', { name: /^Download reexport-take\./ })).toHaveCount(3);
  for (const f of ['json', 'srt', 'txt']) {
    await expect(detail.getByRole('button', { name: `Download reexport-take.${f}` })).toBeVisible();
  }
  expect(find(path.join(env.state, 'inbox'), 'reexport-take.srt')).toBeDefined();

  // The next time, the formats chosen are the job's: checked from the start. Escape closes.
  await detail.getByRole('button', { name: 'Re-export results…' }).click();
  await expect(box('SRT captions')).toBeChecked();
  await expect(box('Plain text')).toBeChecked();
  await expect(box('WebVTT captions')).not.toBeChecked();
  // The formats stand in groups with headings; the captions can be laid out anew (Vertical: one
  // line of 32, no speaker names) from the same transcript.
  for (const g of ['Captions', 'Transcript documents', 'For the editing timeline', 'Chapters and show notes (recipes)'])
    await expect(dialog.getByRole('group', { name: g })).toBeVisible();
  await dialog.getByLabel('Caption layout (SRT and VTT)').selectOption('vertical');
  for (const [scheme, size] of [
    ['light', { width: 800, height: 600 }],
    ['dark', { width: 800, height: 600 }],
    ['light', { width: 1920, height: 1080 }],
    ['dark', { width: 1920, height: 1080 }],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(size);
    await steadyForAxe(page);
    const { violations } = await axe(page).analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await shot(page, `history-reexport-preset-${scheme}-${size.width}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1360, height: 860 });
  // Asked for by name, the layout replaces the main captions (unticked it goes beside: 43-reflow).
  await dialog.getByLabel('Replace the main captions with this layout').check();
  await dialog.getByRole('button', { name: 'Re-export', exact: true }).click();
  await expect(page.getByText('Saved 3 result files again.')).toBeVisible();
  await expect
    .poll(() => {
      const srt = readFileSync(find(path.join(env.state, 'inbox'), 'reexport-take.srt') ?? '', 'utf8');
      const cues = srt.trim().split(/\n\n+/);
      return (
        cues.length > 0 && cues.every((c) => c.split('\n').length === 3 && Array.from(c.split('\n')[2]!).length <= 32)
      );
    })
    .toBe(true);
  await detail.getByRole('button', { name: 'Re-export results…' }).click();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(problems).toEqual([]);
});

test('a file still being copied into a watch folder waits, its size growing, then uploads once; Rescan says so', async ({
  page,
}) => {
  const problems = await openApp(page);
  const folder = await watchFolder(page);
  await running(page);
  const target = path.join(watchDir(), 'slow copy.wav');
  const bytes = toneWav(4);
  // A copy that takes a few seconds: a piece every 300 ms, faster than the 2 s settle time, for
  // at least 15 pieces (4.5 s, over twice the settle time) and until the Queue has shown it growing
  // (a loaded machine shows it later: the copy lasts as long as that takes, up to 32 pieces, 9.6 s).
  // Then the rest comes in the last 3 pieces, still one every 300 ms.
  const chunk = 4096;
  writeFileSync(target, bytes.subarray(0, chunk));
  let written = chunk;
  let pieces = 1;
  let seenGrowing = false;
  let piece = chunk;
  const copier = setInterval(() => {
    if (written >= bytes.length) return clearInterval(copier);
    if (seenGrowing && pieces >= 15 && piece === chunk) piece = Math.ceil((bytes.length - written) / 3);
    appendFileSync(target, bytes.subarray(written, written + piece));
    written += piece;
    pieces++;
  }, 300);
  try {
    const copying = page.getByTestId('copying').locator('li', { hasText: 'slow copy.wav' });
    await expect(copying).toContainText('Waiting for the copy to finish');
    const first = shownBytes((await copying.textContent()) ?? '');
    await expect
      .poll(async () => shownBytes((await copying.textContent()) ?? ''), { timeout: 10_000 })
      .toBeGreaterThan(first);
    await shot(page, 'queue-watch-copying');
    await expect(row(page, 'slow copy.wav')).toHaveCount(0);
    seenGrowing = true;
    await expect.poll(() => written >= bytes.length, { timeout: 20_000 }).toBe(true);
  } finally {
    clearInterval(copier);
  }
  await expect(page.getByTestId('copying')).toHaveCount(0, { timeout: 20_000 });
  await expect(row(page, 'slow copy.wav')).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
  expect(statSync(target).size).toBe(bytes.length);

  // Rescan finds it processed, says so, and takes nothing again.
  await go(page, 'Settings');
  await folder.getByRole('button', { name: 'Rescan' }).click();
  const summary = folder.getByTestId('rescan-summary');
  await expect(summary).toContainText('Rescan:');
  await expect(summary).toContainText('1 already processed');
  await shot(page, 'settings-rescan-summary');
  await go(page, 'Queue');
  await expect(row(page, 'slow copy.wav')).toHaveCount(1);
  await go(page, 'History');
  await page.getByRole('searchbox', { name: 'Search file names' }).fill('slow copy');
  await expect(historyRow(page, 'slow copy.wav')).toHaveCount(1);
  expect(problems).toEqual([]);
});

test('a watch folder’s unsaved edits are never dropped silently: Escape, Cancel and leaving ask first', async ({
  page,
}) => {
  const problems = await openApp(page);
  const folder = await watchFolder(page);
  const editor = folder.getByTestId('folder-editor');
  const dialog = page.getByTestId('leave-dialog');
  const subfolders = editor.getByRole('checkbox', { name: 'Include subfolders' });

  // Nothing changed: Escape closes without asking.
  await folder.getByRole('button', { name: 'Edit' }).click();
  await expect(editor).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(dialog).toBeHidden();

  // Escape with a change asks; Stay keeps the editor and the change.
  await folder.getByRole('button', { name: 'Edit' }).click();
  const before = await subfolders.isChecked();
  await subfolders.setChecked(!before);
  await subfolders.focus();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Save your changes to this watch folder?');
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeFocused();
  await shot(page, 'settings-folder-leave-dialog');
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(dialog).toBeHidden();
  await expect(subfolders).toBeChecked({ checked: !before });

  // Cancel asks too; Discard closes and drops the change.
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(editor).toBeHidden();
  await folder.getByRole('button', { name: 'Edit' }).click();
  await expect(subfolders).toBeChecked({ checked: before });

  // Another screen asks; Escape stays; Save keeps the change and goes on.
  await subfolders.setChecked(!before);
  await nav(page, 'Queue').click();
  await expect(dialog).toContainText('this watch folder');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await nav(page, 'Queue').click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Queue' })).toBeVisible();
  await go(page, 'Settings');
  await folder.getByRole('button', { name: 'Edit' }).click();
  await expect(subfolders).toBeChecked({ checked: !before });
  // Put back as it was, saved in the editor itself: no question.
  await subfolders.setChecked(before);
  await editor.getByRole('button', { name: 'Save folder' }).click();
  await expect(editor).toBeHidden();
  await expect(dialog).toBeHidden();
  expect(problems).toEqual([]);
});

test('media with no speech completes as "No speech found" in row and detail, with no caption files', async ({
  page,
}) => {
  const problems = await openApp(page);
  const folder = await watchFolder(page);
  // The folder asks for captions: a file with no words gets none all the same.
  await folder.getByRole('button', { name: 'Edit' }).click();
  const editor = folder.getByTestId('folder-editor');
  for (const f of ['SRT captions', 'WebVTT captions']) await editor.getByRole('checkbox', { name: f }).check();
  await editor.getByRole('button', { name: 'Save folder' }).click();
  await expect(editor).toBeHidden();
  await running(page);

  // Made beside the folder, then moved in whole.
  const made = silence(mediaDir(), 'room tone 09.wav', 3);
  const name = 'room tone 09.wav';
  renameSync(made, path.join(watchDir(), name));
  await expect(row(page, name)).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
  await expect(row(page, name).getByTestId('row-no-speech')).toHaveText('No speech found');
  await row(page, name).dblclick();
  const detail = page.getByTestId('job-detail');
  await expect(detail).toContainText('No speech found');
  await expect(detail.getByRole('button', { name: /^Open / })).toHaveCount(1);
  await expect(detail.getByRole('button', { name: 'Open room tone 09.json' })).toBeVisible();
  await shot(page, 'queue-no-speech');
  expect(readdirSync(watchDir()).filter((f) => f.startsWith('room tone 09.'))).toEqual([
    'room tone 09.json',
    'room tone 09.wav',
  ]);

  await go(page, 'History');
  await page.getByRole('searchbox', { name: 'Search file names' }).fill('room tone 09');
  const entry = historyRow(page, name);
  await expect(entry.getByTestId('row-no-speech')).toHaveText('No speech');
  await entry.click();
  const hd = page.getByTestId('history-detail');
  await expect(hd.getByTestId('no-speech')).toContainText('No speech found');
  await shot(page, 'history-no-speech');
  // Re-exporting offers no caption formats either, and says why.
  await hd.getByRole('button', { name: 'Re-export results…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Re-export results' });
  for (const f of ['SRT captions', 'WebVTT captions', 'Plain text']) {
    await expect(dialog.getByRole('checkbox', { name: f })).toBeDisabled();
    await expect(dialog.getByRole('checkbox', { name: f })).not.toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: f })).toHaveAccessibleDescription(/No speech was found/);
  }
  await shot(page, 'history-reexport-no-speech');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(problems).toEqual([]);
});

test.afterAll(async ({ browser }) => {
  // The flows after these one expect no watch folder of ours.
  const page = await browser.newPage();
  await openApp(page);
  await go(page, 'Settings');
  const item = page.getByTestId('watch-folder').filter({ hasText: watchDir() });
  if ((await item.count()) > 0) {
    await item.getByRole('button', { name: /^Remove / }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Stop watching' }).click();
    await expect(item).toHaveCount(0);
  }
  await page.close();
});
