/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// History's search inside transcripts leads to the moment: a word typed without its case and
// accents finds the transcript, the matching line is shown, and "Transcript at mm:ss" opens the
// review with the player there and that word lit.
import { expect, test } from '@playwright/test';
import type { TranscriptView } from '../../preload/contract.js';
import { searchTokens } from '../../main/engine/transcript/search-text.js';
import { bridge as post, expectNoSeriousAxe, go, openApp, shot, toneWav } from './helpers.js';

/** "Romanian transcription": the sandbox's Romanian sentences carry ă, â, î, ș and ț. */
const ROMANIAN_TEMPLATE = '678e26e695f8f5742e8718f4';
const FILE = 'interviu-pod.wav';

/**
 * A word with diacritics spoken well into the recording, as the index finds it: the earliest
 * word the folded term starts (a single term's best line is its first), and that word's index.
 */
function accentedWord(view: TranscriptView): { term: string; index: number } {
  const first = new Map<string, number>();
  for (const w of view.words) {
    const bare = w.text.replace(/[^\p{L}]/gu, '');
    if (bare.normalize('NFKD') === bare || bare.length < 5) continue;
    const [term] = searchTokens(bare);
    if (!term || first.has(term)) continue;
    first.set(
      term,
      view.words.findIndex((x) => searchTokens(x.text).some((t) => t.startsWith(term))),
    );
  }
  // The one first heard latest: the review has to move to it, not merely start at the top.
  const [term, index] = [...first].sort((a, b) => view.words[b[1]]!.start - view.words[a[1]]!.start)[0] ?? ['', -1];
  return { term, index };
}

test('a History search hit inside a transcript opens the review at that moment, the word lit', async ({ page }) => {
  test.setTimeout(180_000);
  const form = new FormData();
  form.set('templateId', ROMANIAN_TEMPLATE);
  form.set('params', JSON.stringify({}));
  form.set('file', new Blob([new Uint8Array(toneWav(40))], { type: 'audio/wav' }), FILE);
  const added = await post<Array<{ jobId?: string }>>('queue:upload', form);
  const jobId = added[0]?.jobId ?? '';
  expect(jobId).not.toBe('');

  const problems = await openApp(page);
  await go(page, 'Queue');
  await expect(page.locator(`[data-testid=job-row][data-name="${FILE}"]`)).toHaveAttribute('data-state', 'completed', {
    timeout: 90_000,
  });
  const view = await post<TranscriptView>('transcript:open', { jobId });
  const { term, index } = accentedWord(view);
  expect(index, 'an accented word in the transcript').toBeGreaterThan(0);
  const word = view.words[index]!;
  expect(word.start).toBeGreaterThan(3000);

  // Upper case, no accents ("SAPTAMANA" for "săptămâna"): still found, with its line.
  await go(page, 'History');
  const search = page.getByRole('searchbox', { name: 'Search file names and transcripts' });
  await search.fill(term.toUpperCase());
  const row = page.locator(`[data-testid=history-row][data-name="${FILE}"]`);
  await expect(row).toBeVisible();
  const spoken = word.text.replace(/[^\p{L}]/gu, '');
  await expect(row.getByTestId('history-match')).toContainText(spoken);
  // The matching word is highlighted in the line.
  await expect(row.getByTestId('history-match').locator('mark').first()).toContainText(spoken);
  await shot(page, 'history-transcript-hit');
  for (const scheme of ['light', 'dark'] as const) {
    for (const size of [
      { width: 800, height: 600 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await row.scrollIntoViewIfNeeded();
      await shot(page, `43-history-snippet-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `history snippet ${scheme} ${size.width}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The detail offers the moment; it opens the review there.
  await row.click();
  const at = `${Math.floor(word.start / 60_000)}:${String(Math.floor(word.start / 1000) % 60).padStart(2, '0')}`;
  const open = page.getByTestId('history-detail').getByRole('button', { name: `Transcript at ${at}` });
  await open.click();
  const review = page.getByTestId('review');
  await expect(review.getByRole('heading', { level: 1 })).toContainText(FILE);
  const audio = review.locator('audio');
  await expect
    .poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 20_000 })
    .toBeCloseTo(word.start / 1000, 1);
  const lit = review.getByTestId('transcript-list').locator('.w.now');
  await expect(lit).toHaveAttribute('data-w', String(index));
  await expect(lit).toContainText(spoken);
  await expect(lit).toBeInViewport();
  await shot(page, 'review-from-search');

  // Closing goes back to the button that opened the view.
  await page.keyboard.press('Escape');
  await expect(review).toHaveCount(0);
  await expect(open).toBeFocused();
  await search.fill('');
  expect(problems).toEqual([]);
});
