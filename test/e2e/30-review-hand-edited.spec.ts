/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// A correction after the editor changed a caption file by hand: Sluice keeps the hand-edited SRT
// and writes the corrected captions under another name. The review says so (not "results updated"),
// names both files, and offers to overwrite the hand-edited file or keep both.
import { expect, test, type Page } from '@playwright/test';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptView } from '../../preload/contract.js';
import { bridge as post, expectNoSeriousAxe, go, keepSettingsForSpec, openApp, shot, toneWav } from './helpers.js';

keepSettingsForSpec(['defaults']);

const FILE = 'hand-edited.wav';
const HAND_CUE = '\n99\n00:09:00,000 --> 00:09:02,000\nAdded by hand in Subtitle Edit\n';

async function openReview(page: Page, jobId: string): Promise<void> {
  await page.locator(`[data-testid=job-row][data-id="${jobId}"]`).dblclick();
  await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();
  await expect(page.getByTestId('review').getByTestId('transcript-paragraph').first()).toBeVisible();
}

async function correctWord(page: Page, index: number, text: string): Promise<void> {
  const list = page.getByTestId('review').getByTestId('transcript-list');
  await list.locator(`[data-w="${index}"]`).dblclick();
  const input = list.getByTestId('inline-input');
  await input.fill(text);
  await input.press('Enter');
  await expect(list.getByTestId('inline-input')).toHaveCount(0);
}

test('a correction after a hand edit says where it went, and overwriting or keeping both is the editor’s choice', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await post('settings:update', { patch: { defaults: { output: { formats: ['json', 'srt', 'txt'] } } } });
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(toneWav(16))], { type: 'audio/wav' }), FILE);
  const added = await post<Array<{ jobId?: string }>>('queue:upload', form);
  const jobId = added[0]?.jobId ?? '';
  expect(jobId).not.toBe('');

  const problems = await openApp(page);
  await go(page, 'Queue');
  await expect(page.locator(`[data-testid=job-row][data-id="${jobId}"]`)).toHaveAttribute('data-state', 'completed', {
    timeout: 150_000,
  });
  const opened = await post<TranscriptView>('transcript:open', { jobId });
  const srt = opened.results.find((r) => r.format === 'srt')?.path ?? '';
  expect(srt).toMatch(/hand-edited\.srt$/);
  const copy = path.join(path.dirname(srt), 'hand-edited.wav.srt');
  // The editor adds a cue in a subtitle editor: the file is theirs now.
  appendFileSync(srt, HAND_CUE);

  await openReview(page, jobId);
  const review = page.getByTestId('review');
  const status = review.getByTestId('transcript-status');
  const notice = review.getByTestId('held-files');
  // How to correct is said before the first correction (a single click only seeks).
  await expect(status).toHaveText(
    'Double-click a word to correct it, or select words and press Enter. Corrections are saved as you make them.',
  );
  await correctWord(page, 2, 'Thursday');
  await expect(status).toContainText(
    'hand-edited.srt was changed outside Sluice and kept; the corrections are in hand-edited.wav.srt',
  );
  await expect(status).not.toContainText('results updated');
  await expect(notice).toContainText('hand-edited.srt was changed outside Sluice');
  await expect(notice).toContainText('The corrections went to hand-edited.wav.srt');
  expect(readFileSync(srt, 'utf8')).toContain('Added by hand');
  expect(readFileSync(copy, 'utf8')).toContain('Thursday');

  for (const size of [
    { width: 1920, height: 1080 },
    { width: 800, height: 600 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(notice.getByRole('button', { name: 'Overwrite hand-edited.srt' })).toBeVisible();
      await expectNoSeriousAxe(page, `hand-edited notice ${scheme} ${size.width}`, '[data-testid=review]');
      await shot(page, `review-hand-edited-${scheme}-${size.width}x${size.height}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1360, height: 860 });

  // Keep both: the notice goes, the hand-edited file stays, and the status still says where the
  // corrections are after the next one.
  await notice.getByRole('button', { name: 'Keep both' }).click();
  await expect(notice).toHaveCount(0);
  await correctWord(page, 3, 'morning');
  await expect(status).toContainText('the corrections are in hand-edited.wav.srt');
  await expect(notice).toHaveCount(0);
  expect(readFileSync(srt, 'utf8')).toContain('Added by hand');

  // Opened again, the review asks again; Overwrite by keyboard writes the corrections over it.
  await review.getByRole('button', { name: 'Close the transcript' }).click();
  await expect(review).toHaveCount(0);
  await openReview(page, jobId);
  const over = notice.getByRole('button', { name: 'Overwrite hand-edited.srt' });
  await over.focus();
  await page.keyboard.press('Enter');
  await expect(notice).toHaveCount(0);
  await expect(status).toContainText('Saved');
  const written = readFileSync(srt, 'utf8');
  expect(written).toContain('Thursday');
  expect(written).toContain('morning');
  expect(written).not.toContain('Added by hand');
  expect(existsSync(copy)).toBe(false);
  // Focus does not fall to the page when the notice goes.
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);

  // The file is Sluice's own again: the next correction goes to it.
  await correctWord(page, 4, 'harbour');
  await expect(status).toContainText('Saved · results updated');
  await expect.poll(() => readFileSync(srt, 'utf8')).toContain('harbour');
  expect(existsSync(copy)).toBe(false);
  expect(problems).toEqual([]);
});
