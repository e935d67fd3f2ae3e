// Selects from everywhere (issue 45), by keyboard: a History search hit's sentence added from the
// hit's detail, a marker's sentence from the review's Markers panel; each says what it added to
// which list, and the Selects screen lists both. main finds the words (selects:addFrom; the rule's
// cases are unit-tested in test/engine/selects/select-from.test.ts). axe on History's new buttons,
// light and dark, at 800×600 and 1920×1080.
import { expect, test, type Page } from '@playwright/test';
import type { SelectListView, TranscriptView } from '../../preload/contract.js';
import { searchTokens } from '../../main/engine/transcript/search-text.js';
import { bridge, expectNoSeriousAxe, go, keepSettingsForSpec, openApp, processFiles, shot } from './helpers.js';

keepSettingsForSpec(['defaults']);

const LIST = 'From everywhere';
const FILE = 'selects-from.wav';
const listNow = (): Promise<SelectListView> => bridge<SelectListView>('selects:open', { list: LIST });

async function axeEverywhere(page: Page, scope: string, what: string): Promise<void> {
  for (const size of [
    { width: 800, height: 600 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator(scope)).toBeVisible();
      await expectNoSeriousAxe(page, `${what} ${scheme} ${size.width}`, scope);
    }
    await shot(page, `45-selects-from-${what}-${size.width}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a search hit and a marker go into the selects by keyboard, and the Selects screen lists them', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const [job] = await processFiles([{ name: FILE, seconds: 20 }]);
  expect(job?.state).toBe('completed');
  const jobId = job!.id;
  let view = await bridge<TranscriptView>('transcript:open', { jobId });
  const words = view.words;
  expect(words.length).toBeGreaterThan(10);
  // A marker on a later word, as M in the review makes one (that key is tested in its own spec).
  const marked = words[words.length - 2]!;
  view = await bridge<TranscriptView>('transcript:edit', {
    jobId,
    revision: view.revision,
    edit: { kind: 'addMarker', atMs: marked.start, name: 'Marked line', note: '', colour: 'Red' },
  });
  const marker = view.markers![0]!;
  // A word to search for, and the first word History finds it at (where its hit starts).
  const term = searchTokens(words.find((w) => w.text.replace(/[^\p{L}]/gu, '').length >= 5)!.text)[0]!;
  const hitWord = words.findIndex((w) => searchTokens(w.text).some((t) => t.startsWith(term)));
  await page.addInitScript((name) => localStorage.setItem('sluice-selects-list', name), LIST);
  await page.setViewportSize({ width: 1920, height: 1080 });
  const problems = await openApp(page);

  // History: the hit, chosen with the arrows (the newest row is this file), its sentence added.
  await go(page, 'History');
  await page.getByRole('searchbox', { name: 'Search file names and transcripts' }).fill(term);
  await expect(page.locator(`[data-testid=history-row][data-name="${FILE}"]`)).toBeVisible();
  await expect(page.locator('.stale')).toHaveCount(0);
  await page.getByRole('grid', { name: 'History' }).focus();
  await page.keyboard.press('ArrowDown');
  const detail = page.getByTestId('history-detail');
  await expect(detail.getByRole('heading', { name: FILE })).toBeVisible();
  const sentence = detail.getByRole('button', { name: `Add the sentence to ${LIST}` });
  await expect(detail.getByRole('button', { name: `Add the speaker's turn to ${LIST}` })).toBeVisible();
  await axeEverywhere(page, '[data-testid=match-to-selects]', 'history');
  await sentence.focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await listNow()).selects.length).toBe(1);
  const fromHit = (await listNow()).selects[0]!;
  const [first, end] = fromHit.words!;
  // The hit's word, within its sentence: from a sentence's start to a sentence's end (or its turn's).
  expect(first).toBeLessThanOrEqual(hitWord);
  expect(end).toBeGreaterThan(hitWord);
  expect(first === 0 || /[.?!…]$/.test(words[first - 1]!.text)).toBe(true);
  expect(end === words.length || /[.?!…]$/.test(words[end - 1]!.text)).toBe(true);
  await expect(
    page.locator('.toasts [role=status]').filter({ hasText: `Added “${fromHit.label}” to ${LIST}.` }),
  ).toBeVisible();

  // The review from the hit, then the marker's own button.
  await detail.getByRole('button', { name: /^Transcript at / }).focus();
  await page.keyboard.press('Enter');
  const review = page.getByTestId('review');
  await expect(review.getByRole('heading', { level: 1 })).toBeFocused();
  const panel = review.getByTestId('markers-panel');
  const add = panel.getByRole('button', { name: `Add to selects: ${marker.name}` });
  // The panels' "Add to selects" buttons are read by axe with the rest of the review, light and
  // dark at 800×600 and 1920×1080: the markers' in 27-timeline.spec.ts, the chapters' and quotes'
  // in 28-chapters.spec.ts.
  await shot(page, '45-selects-from-markers');
  await add.focus();
  await page.keyboard.press('Enter');
  await expect(
    page.locator('.toasts [role=status]').filter({ hasText: `Added “Marked line” to ${LIST}.` }),
  ).toBeVisible();
  const after = await listNow();
  expect(after.selects).toHaveLength(2);
  expect(after.selects[1]).toMatchObject({ label: 'Marked line', colour: 'Red' });
  const markedWord = words.indexOf(marked);
  expect(after.selects[1]!.words![0]).toBeLessThanOrEqual(markedWord);
  expect(after.selects[1]!.words![1]).toBeGreaterThan(markedWord);

  // The Selects screen lists both, in the order they were added.
  await page.keyboard.press('Escape');
  await expect(review).toHaveCount(0);
  await page.keyboard.press('Control+5');
  const screen = page.getByTestId('selects-screen');
  await expect(screen.getByRole('heading', { level: 1, name: 'Selects' })).toBeVisible();
  await expect(screen.getByTestId('selects-total')).toContainText('2 bites');
  const rows = screen.locator('[data-select-id]');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-select-id', fromHit.id);
  await expect(rows.nth(1)).toContainText('Marked line');
  await shot(page, '45-selects-from-screen');
  expect(problems).toEqual([]);
});
