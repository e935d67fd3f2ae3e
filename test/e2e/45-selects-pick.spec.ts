/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Picking selects in the review while the clip plays (issue 45): I at one word, O at a later one,
// and the bite is highlighted within 100 ms of the key while the media keeps playing; main saves it
// into the current list (the CLI's too); Shift+→ three times then B adds four words from the spoken
// one, lit as they are selected, still playing; B adds words selected with the mouse; a select
// deleted from the bar comes back with Undo. axe on the review with its selects bar, light and dark.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import type { SelectListView, TranscriptView } from '../../preload/contract.js';
import { bridge, env, expectNoSeriousAxe, go, keepSettingsForSpec, openApp, shot, spokenWebm } from './helpers.js';

keepSettingsForSpec(['defaults']);

const LIST = 'Selects';

/** Spoken English under a moving picture, long enough to mark while it plays. */
function spokenVideo(dir: string): string {
  return spokenWebm(
    dir,
    'bites',
    'We start with the budget, because the budget decides everything else. Then the schedule: ' +
      'six weeks of filming on the river, two weeks in the edit. Finally the people, who make it work.',
    140,
  );
}

async function uploadAndWait(): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([readFileSync(spokenVideo(env.work))], { type: 'video/webm' }), 'bites.webm');
  const added = await bridge<Array<{ outcome: string; jobId?: string }>>('queue:upload', form);
  const jobId = added[0]?.jobId ?? '';
  expect(jobId).not.toBe('');
  await expect
    .poll(
      async () =>
        (await bridge<{ jobs: Array<{ id: string; state: string }> }>('queue:snapshot')).jobs.find(
          (j) => j.id === jobId,
        )?.state,
      { timeout: 90_000 },
    )
    .toBe('completed');
  return jobId;
}

async function openReview(page: Page): Promise<string[]> {
  const problems = await openApp(page);
  await go(page, 'Queue');
  const row = page.locator('[data-testid=job-row][data-name="bites.webm"]');
  await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 90_000 });
  await row.dblclick();
  await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();
  const review = page.getByTestId('review');
  await expect(review.getByRole('heading', { level: 1 })).toBeFocused();
  await expect(review.getByTestId('transcript-list').getByTestId('transcript-paragraph').first()).toBeVisible();
  return problems;
}

/** The words the selects highlight covers on screen, by their index. */
const highlighted = (page: Page, name = 'sluice-selects'): Promise<number[]> =>
  page.evaluate((n) => {
    const h = (CSS.highlights as unknown as Map<string, Set<AbstractRange>>).get(n);
    const out: number[] = [];
    for (const r of (h ?? new Set()) as Set<AbstractRange>) {
      const el = r.startContainer instanceof Element ? r.startContainer : r.startContainer.parentElement;
      const w = el?.closest('[data-w]')?.getAttribute('data-w');
      if (w) out.push(Number(w));
    }
    return out.sort((a, b) => a - b);
  }, name);

/** The first and last word of the Shift+arrows selection's highlight ([] when there is none). */
const keyedWords = (page: Page): Promise<number[]> =>
  page.evaluate(() => {
    const h = (CSS.highlights as unknown as Map<string, Set<AbstractRange>>).get('sluice-words');
    const r = [...((h ?? new Set()) as Set<AbstractRange>)][0];
    if (!r) return [];
    const word = (n: Node): number => {
      const el = n instanceof Element ? n : n.parentElement;
      return Number(el?.closest('[data-w]')?.getAttribute('data-w'));
    };
    return [word(r.startContainer), word(r.endContainer)];
  });

test('selects picked while the clip plays are lit within 100 ms and playback never pauses', async ({ page }) => {
  test.setTimeout(240_000);
  const jobId = await uploadAndWait();
  const problems = await openReview(page);
  const words = (await bridge<TranscriptView>('transcript:open', { jobId })).words;
  const video = page.getByTestId('review').locator('video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 })
    .toBeGreaterThan(0);

  // When each key went down and when the highlight it makes was first painted (frame by frame).
  await page.evaluate(() => {
    const w = window as unknown as { marks: Record<string, number> };
    w.marks = {};
    addEventListener('keydown', (e) => void (w.marks[`key-${e.key}`] ??= performance.now()), true);
    const watch = (): void => {
      if (
        !w.marks.in &&
        ((CSS.highlights as unknown as Map<string, Set<AbstractRange>>).get('sluice-select-in')?.size ?? 0) > 0
      )
        w.marks.in = performance.now();
      if (
        !w.marks.bite &&
        ((CSS.highlights as unknown as Map<string, Set<AbstractRange>>).get('sluice-selects')?.size ?? 0) > 0
      )
        w.marks.bite = performance.now();
      if (
        !w.marks.words &&
        ((CSS.highlights as unknown as Map<string, Set<AbstractRange>>).get('sluice-words')?.size ?? 0) > 0
      )
        w.marks.words = performance.now();
      requestAnimationFrame(watch);
    };
    watch();
  });

  await page.keyboard.press('l');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(1);
  await page.keyboard.press('i');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { marks: Record<string, number> }).marks.in))
    .toBeTruthy();
  const inWord = (await highlighted(page, 'sluice-select-in'))[0]!;
  // A second and a half later, the out.
  const at = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(at + 1.5);
  await page.keyboard.press('o');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { marks: Record<string, number> }).marks.bite))
    .toBeTruthy();
  const marks = await page.evaluate(() => (window as unknown as { marks: Record<string, number> }).marks);
  test.info().annotations.push({
    type: 'timing',
    description: `I → lit ${(marks.in! - marks['key-i']!).toFixed(0)} ms, O → lit ${(marks.bite! - marks['key-o']!).toFixed(0)} ms`,
  });
  console.log(
    `selects timing: I → lit ${(marks.in! - marks['key-i']!).toFixed(0)} ms, O → lit ${(marks.bite! - marks['key-o']!).toFixed(0)} ms`,
  );
  expect(marks.in! - marks['key-i']!).toBeLessThan(100);
  expect(marks.bite! - marks['key-o']!).toBeLessThan(100);

  // Playback went on through both keys: not paused, and the playhead still moving.
  expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
  const after = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(after + 0.3);
  expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);

  // Main saved it: the list holds the words from the in to the out, and they are what is lit.
  await expect.poll(async () => (await bridge<SelectListView>('selects:open', { list: LIST })).selects.length).toBe(1);
  const saved = (await bridge<SelectListView>('selects:open', { list: LIST })).selects[0]!;
  expect(saved.jobId).toBe(jobId);
  expect(saved.words![0]).toBe(inWord);
  expect(saved.words![1]).toBeGreaterThan(inWord + 1);
  const lit = await highlighted(page);
  expect(lit[0]).toBe(saved.words![0]);
  expect(lit[lit.length - 1]).toBe(saved.words![1] - 1);
  await expect(page.getByTestId('selects-status')).toContainText('Added');

  // Shift+→ three times from the spoken word, then B: four words, lit as they are selected, join
  // the list; playback goes on throughout.
  const status = page.getByTestId('selects-status');
  const began = Date.now();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
  await expect(status).toContainText('4 words selected');
  await expect
    .poll(async () => {
      const w = await keyedWords(page);
      return w.length === 2 ? w[1]! - w[0]! : -1;
    })
    .toBe(3);
  const run = await keyedWords(page);
  await shot(page, 'selects-review-shift-words');
  expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
  await page.keyboard.press('b');
  await expect.poll(async () => (await bridge<SelectListView>('selects:open', { list: LIST })).selects.length).toBe(2);
  const keyed = (await bridge<SelectListView>('selects:open', { list: LIST })).selects[1]!;
  expect(keyed.words).toEqual([run[0], run[0]! + 4]);
  await expect.poll(() => keyedWords(page)).toEqual([]);
  expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
  // Esc lets go of a selection (and does not close the review).
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(status).toContainText('2 words selected');
  await page.keyboard.press('Escape');
  await expect(status).toHaveText('No words selected.');
  await expect.poll(() => keyedWords(page)).toEqual([]);
  await expect(page.getByTestId('review')).toBeVisible();
  const litMs = await page.evaluate(() => {
    const m = (window as unknown as { marks: Record<string, number> }).marks;
    return m.words! - m['key-ArrowRight']!;
  });
  console.log(
    `selects timing: Shift+→ → lit ${litMs.toFixed(0)} ms; Shift+arrows, B and Esc took ${Date.now() - began} ms`,
  );
  await page.keyboard.press('k');

  // B: words selected with the mouse become a select of their own.
  const list = page.getByTestId('transcript-list');
  const from = Math.min(words.length - 3, saved.words![1] + 1);
  await list.locator(`[data-w="${from}"]`).scrollIntoViewIfNeeded();
  await page.evaluate(
    ([a, b]) => {
      const first = document.querySelector(`[data-testid=transcript-list] [data-w="${a}"]`)!;
      const last = document.querySelector(`[data-testid=transcript-list] [data-w="${b}"]`)!;
      const r = document.createRange();
      r.setStartBefore(first);
      r.setEndAfter(last);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(r);
    },
    [from, from + 1],
  );
  await page.keyboard.press('b');
  await expect.poll(async () => (await bridge<SelectListView>('selects:open', { list: LIST })).selects.length).toBe(3);
  const second = (await bridge<SelectListView>('selects:open', { list: LIST })).selects[2]!;
  expect(second.words).toEqual([from, from + 2]);
  await page.evaluate(() => getSelection()?.removeAllRanges());

  // Delete from the bar by keyboard, then Undo puts it back in its place.
  const bar = page.getByTestId('selects-bar');
  await expect(bar.getByText('3 in this clip')).toBeVisible();
  await bar.getByText('3 in this clip').focus();
  await page.keyboard.press('Enter');
  const del = bar.getByRole('button', { name: `Delete “${saved.label}”` });
  await del.focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await bridge<SelectListView>('selects:open', { list: LIST })).selects.length).toBe(2);
  await page.locator('.toast').filter({ hasText: 'Deleted' }).getByRole('button', { name: 'Undo' }).click();
  await expect
    .poll(async () => (await bridge<SelectListView>('selects:open', { list: LIST })).selects.map((s) => s.id))
    .toEqual([saved.id, keyed.id, second.id]);

  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    await expectNoSeriousAxe(page, `review with selects (${theme})`);
    await shot(page, `selects-review-${theme}`);
  }
  expect(problems).toEqual([]);
});
