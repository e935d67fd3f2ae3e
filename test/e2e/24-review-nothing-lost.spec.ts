/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Nothing typed in the review is lost: a correction being typed is applied when focus leaves it
// (another word, another paragraph, another screen), a double-click on another word while it is
// being saved still opens that word, and leaving without focus moving (Ctrl+2) asks first.
import { expect, test, type Page } from '@playwright/test';
import type { TranscriptView } from '../../preload/contract.js';
import { bridge as post, expectNoSeriousAxe, go, openApp, shot, toneWav } from './helpers.js';

/** "Transcription + speakers": the sandbox then gives the words speakers, so several paragraphs. */
const DIARIZATION_TEMPLATE = '669fee048452492b62cfad39';
const FILE = 'typed-corrections.wav';

let uploaded: Promise<string> | null = null;
/** The job both tests correct: uploaded once per server (a retried test finds it in the queue). */
function job(): Promise<string> {
  uploaded ??= (async () => {
    const queued = await post<{ jobs: Array<{ id: string; fileName: string }> }>('queue:snapshot', {});
    const known = queued.jobs.find((j) => j.fileName === FILE);
    if (known) return known.id;
    const form = new FormData();
    form.set('templateId', DIARIZATION_TEMPLATE);
    form.set('params', JSON.stringify({ speakersNumber: 2 }));
    form.set('file', new Blob([new Uint8Array(toneWav(24))], { type: 'audio/wav' }), FILE);
    const added = await post<Array<{ jobId?: string }>>('queue:upload', form);
    const jobId = added[0]?.jobId ?? '';
    expect(jobId).not.toBe('');
    return jobId;
  })();
  return uploaded;
}

const words = async (jobId: string): Promise<string[]> =>
  (await post<TranscriptView>('transcript:open', { jobId })).words.map((w) => w.text);

async function openReview(page: Page, jobId: string): Promise<string[]> {
  const problems = await openApp(page);
  await go(page, 'Queue');
  await expect(page.locator(`[data-testid=job-row][data-id="${jobId}"]`)).toHaveAttribute('data-state', 'completed', {
    timeout: 150_000,
  });
  await openReviewAgain(page, jobId);
  return problems;
}

test('a correction being typed is applied when the editor clicks another word or paragraph', async ({ page }) => {
  test.setTimeout(300_000);
  const jobId = await job();
  const problems = await openReview(page, jobId);
  const review = page.getByTestId('review');
  const list = review.getByTestId('transcript-list');
  const status = review.getByTestId('transcript-status');
  const before = await words(jobId);
  expect(before.length).toBeGreaterThan(20);

  // (a) A word: double-click, type two words, then click another word; no Enter.
  await list.locator('[data-w="2"]').dblclick();
  const input = list.getByTestId('inline-input');
  await input.fill('harbour office');
  await shot(page, 'review-typing-word');
  await list.locator('[data-w="9"]').click();
  await expect(list.getByTestId('inline-input')).toHaveCount(0);
  await expect(list.locator('[data-w="2"]')).toHaveText('harbour');
  await expect(list.locator('[data-w="3"]')).toHaveText('office');
  await expect(status).toContainText('Saved');
  expect((await words(jobId)).slice(2, 4)).toEqual(['harbour', 'office']);
  await shot(page, 'review-after-blur-word');

  // (b) A paragraph: ⋯ → "Correct this paragraph", append a sentence, click a word in another paragraph.
  const second = list.getByTestId('transcript-paragraph').nth(1);
  const firstWordOfSecond = Number(await second.locator('[data-w]').first().getAttribute('data-w'));
  await list.getByTestId('transcript-paragraph').first().getByRole('button', { name: 'Paragraph actions' }).click();
  await page.getByRole('button', { name: 'Correct this paragraph' }).click();
  const para = list.getByTestId('inline-input');
  await expect(para).toBeFocused();
  // The paragraph's field wraps: the end of the text, not of its first line.
  await para.press('ControlOrMeta+End');
  await para.pressSequentially(' and the tide turned');
  await shot(page, 'review-typing-paragraph');
  await second.locator('[data-w]').nth(1).click();
  await expect(list.getByTestId('inline-input')).toHaveCount(0);
  // Appended at the end of the first paragraph, before the second's first word.
  await expect
    .poll(async () => (await words(jobId)).slice(firstWordOfSecond, firstWordOfSecond + 4).join(' '))
    .toBe('and the tide turned');

  // (c) A double-click on another word while the first correction is being saved still opens it,
  // found again after the words the correction added.
  await list.locator('[data-w="1"]').dblclick();
  await list.getByTestId('inline-input').fill('grand old river');
  const next = list.locator('[data-w="6"]');
  const nextText = (await next.textContent()) ?? '';
  await next.dblclick();
  // Word 6 moved two places on (one word became three); its text is what the field offers.
  await expect(list.getByTestId('inline-input')).toHaveValue(nextText);
  await expect.poll(async () => (await words(jobId)).slice(1, 4)).toEqual(['grand', 'old', 'river']);
  await list.getByTestId('inline-input').press('Escape');
  expect(problems).toEqual([]);
});

test('a correction being typed survives leaving the review: by the sidebar it is applied, by keyboard it is asked about', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const jobId = await job();
  const problems = await openReview(page, jobId);
  const review = page.getByTestId('review');
  const list = review.getByTestId('transcript-list');

  // The sidebar: focus leaves the field for the button, so the correction is applied on the way out.
  await list.locator('[data-w="4"]').dblclick();
  await list.getByTestId('inline-input').fill('Thursday');
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'History' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  await expect(review).toHaveCount(0);
  await expect.poll(async () => (await words(jobId))[4]).toBe('Thursday');

  // Ctrl+2 while typing: focus never leaves the field, so the leave dialog asks. Stay keeps the text.
  // (Back on the Queue, the review it was opened over shows again.)
  await backToReview(page);
  await list.locator('[data-w="5"]').dblclick();
  await list.getByTestId('inline-input').fill('Friday');
  await page.keyboard.press('Control+2');
  const dialog = page.getByTestId('leave-dialog');
  await expect(dialog.getByRole('heading')).toHaveText(`Save your changes to the transcript of ${FILE}?`);
  await expect(dialog).toContainText('“Friday”');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousAxe(page, `leave dialog over the review, ${scheme}`);
    await shot(page, `review-leave-dialog-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(list.getByTestId('inline-input')).toHaveValue('Friday');
  await expect(review).toBeVisible();

  // Asked again, Save applies it and goes on.
  await expect(list.getByTestId('inline-input')).toBeFocused();
  await page.keyboard.press('Control+2');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(review).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  await expect.poll(async () => (await words(jobId))[5]).toBe('Friday');

  // Discard drops it, as asked.
  await backToReview(page);
  await list.locator('[data-w="6"]').dblclick();
  const kept = (await words(jobId))[6];
  await list.getByTestId('inline-input').fill('Saturday');
  await page.keyboard.press('Control+3');
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  expect((await words(jobId))[6]).toBe(kept);
  expect(problems).toEqual([]);
});

/** Back to the Queue, which the review was opened over: it shows again. */
async function backToReview(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Queue' }).click();
  await expect(page.getByTestId('review').getByRole('heading', { level: 1 })).toContainText(FILE);
  await expect(page.getByTestId('review').getByTestId('transcript-paragraph').first()).toBeVisible();
}

async function openReviewAgain(page: Page, jobId: string): Promise<void> {
  await page.locator(`[data-testid=job-row][data-id="${jobId}"]`).dblclick();
  await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();
  await expect(page.getByTestId('review').getByTestId('transcript-paragraph').first()).toBeVisible();
}
