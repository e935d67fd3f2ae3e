/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Find and replace in the review: a name misspelt forty times across a long transcript is found
// by Ctrl+F over every word (most of them outside the paragraphs in the DOM), Enter and
// Shift+Enter bring each match into view lit, and "Replace all" is one change: saved as
// corrections are, in the results within a second, and taken back by one Undo.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import type { JobView, TranscriptView } from '../../preload/contract.js';
import {
  bridge as post,
  expectNoSeriousAxe,
  expectQuickOnQuietMachine,
  go,
  openApp,
  shot,
  toneWav,
} from './helpers.js';

/** "Transcription + speakers": several speakers, so many paragraphs. */
const DIARIZATION_TEMPLATE = '669fee048452492b62cfad39';
const FILE = 'find-replace-long.wav';
const MISSPELT = 40;

const count = (text: string, word: string): number => text.split(word).length - 1;

test('a name misspelt forty times is found across the whole transcript and replaced in one undoable step', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const form = new FormData();
  form.set('templateId', DIARIZATION_TEMPLATE);
  form.set('params', JSON.stringify({ speakersNumber: 3 }));
  form.set('file', new Blob([new Uint8Array(toneWav(240))], { type: 'audio/wav' }), FILE);
  const added = await post<Array<{ jobId?: string }>>('queue:upload', form);
  const jobId = added[0]?.jobId ?? '';
  expect(jobId).not.toBe('');

  const problems = await openApp(page);
  await go(page, 'Queue');
  const row = page.locator(`[data-testid=job-row][data-id="${jobId}"]`);
  await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 200_000 });

  // The misspelling, made through the bridge: forty words spread over the file become "Mooflow,"
  // (one edit; the review's undo stack then starts with it).
  const first = await post<TranscriptView>('transcript:open', { jobId });
  const n = first.words.length;
  expect(n).toBeGreaterThan(400);
  const at = Array.from({ length: MISSPELT }, (_, k) => Math.floor(((k + 0.5) * n) / MISSPELT));
  await post<TranscriptView>('transcript:edit', {
    jobId,
    revision: first.revision,
    edit: { kind: 'replaceMany', replacements: at.map((i) => ({ from: i, to: i + 1, text: 'Mooflow,' })) },
  });

  await row.dblclick();
  await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();
  const review = page.getByTestId('review');
  const list = review.getByTestId('transcript-list');
  await expect(list.getByTestId('transcript-paragraph').first()).toBeVisible();
  // Most of the transcript is outside the DOM: the browser's own find could not see it.
  const inDom = await list.locator('[data-w]').count();
  expect(inDom).toBeLessThan(n / 2);

  // Ctrl+F opens find, with the field focused; matches are counted over every word.
  await list.focus();
  await page.keyboard.press('Control+f');
  const input = review.getByTestId('find-input');
  await expect(input).toBeFocused();
  await input.fill('MOOFLOW');
  await expect(review.getByTestId('find-bar')).toContainText(`${MISSPELT} matches`);

  // Enter: the first match (from the start); Shift+Enter from there wraps to the last one, far
  // beyond the paragraphs first rendered: it is brought into view and lit.
  await input.press('Enter');
  await expect(review.getByTestId('find-bar')).toContainText(`1 of ${MISSPELT}`);
  await expect(list.locator(`[data-w="${at[0]}"]`)).toHaveClass(/hit-now/);
  await input.press('Shift+Enter');
  await expect(review.getByTestId('find-bar')).toContainText(`${MISSPELT} of ${MISSPELT}`);
  const last = list.locator(`[data-w="${at[MISSPELT - 1]}"]`);
  await expect(last).toHaveClass(/hit-now/);
  await expect(last).toBeInViewport();
  await input.press('Shift+Enter');
  await expect(list.locator(`[data-w="${at[MISSPELT - 2]}"]`)).toHaveClass(/hit-now/);
  await expect(list.locator(`[data-w="${at[MISSPELT - 2]}"]`)).toBeInViewport();
  await shot(page, 'review-find');
  for (const [scheme, size] of [
    ['light', { width: 800, height: 600 }],
    ['dark', { width: 800, height: 600 }],
    ['light', { width: 1920, height: 1080 }],
    ['dark', { width: 1920, height: 1080 }],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(size);
    await expectNoSeriousAxe(page, `find ${scheme} ${size.width}`);
    await shot(page, `review-find-${scheme}-${size.width}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1360, height: 860 });

  // Replace all: one change, saved, in the results within a second; punctuation kept.
  await review.getByTestId('replace-input').fill('MoveFlow');
  const job = (await post<{ jobs: JobView[] }>('queue:snapshot', {})).jobs.find((j) => j.id === jobId)!;
  const txt = job.results.find((r) => r.format === 'txt');
  expect(txt).toBeDefined();
  const started = Date.now();
  await review.getByTestId('replace-all').click();
  await expect(review.getByTestId('transcript-status')).toContainText('Saved · results updated');
  const text = readFileSync(txt!.path, 'utf8');
  expectQuickOnQuietMachine(Date.now() - started, 1000, 'replace all, saved and written');
  expect(count(text, 'MoveFlow,')).toBe(MISSPELT);
  expect(count(text, 'Mooflow')).toBe(0);
  await expect(review.getByTestId('find-bar')).toContainText('No matches');
  await expect(review.getByTestId('find-bar')).toContainText(`Replaced ${MISSPELT} matches`);
  const replaced = await post<TranscriptView>('transcript:open', { jobId });
  expect(at.map((i) => replaced.words[i]!.text)).toEqual(at.map(() => 'MoveFlow,'));
  await shot(page, 'review-find-replaced');

  // One Undo takes all forty back (Escape closes find first, focus returns to the transcript).
  await page.keyboard.press('Escape');
  await expect(review.getByTestId('find-bar')).toHaveCount(0);
  await expect(list).toBeFocused();
  await page.keyboard.press('Control+z');
  await expect
    .poll(
      async () =>
        (await post<TranscriptView>('transcript:open', { jobId })).words.filter((w) => w.text === 'Mooflow,').length,
    )
    .toBe(MISSPELT);
  await expect.poll(() => count(readFileSync(txt!.path, 'utf8'), 'Mooflow,')).toBe(MISSPELT);
  expect(problems).toEqual([]);
});
