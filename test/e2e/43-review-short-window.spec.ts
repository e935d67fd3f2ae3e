/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// The review in a short window (the walkthrough's S3-14: at 800 × 600 a player and about one
// paragraph): the player becomes a strip, the hint one phrase, the markers and chapters fold to
// one line, and at least five lines of the transcript are in view, in light and dark. At
// 1920 × 1080 nothing is folded. Every control stays reachable by keyboard and mouse; axe clean.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { makeFfmpegMedia } from '../helpers/media.js';
import { bridge, env, expectNoSeriousAxe, openApp, shot, THEMES } from './helpers.js';

/** "Transcription + speakers": turns of a few sentences each, as in an interview. */
const DIARIZATION_TEMPLATE = '669fee048452492b62cfad39';

/**
 * Two minutes of a test pattern over a tone (the sandbox hears the tone as speech), encoded once
 * per run and copied under `name` as its title (distinct bytes per name). Made without blocking the
 * test's event loop: a blocked loop misses the bridge closing its idle keep-alive connection, and
 * the upload that follows is written into the closed socket (EPIPE).
 */
async function makeVideo(name: string): Promise<Buffer> {
  // Encoded for speed (the machine is shared): a small picture, ten frames a second.
  const args = ['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=10'];
  args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '120');
  args.push('-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '60k');
  args.push('-c:a', 'libopus', '-b:a', '24k');
  return readFile(await makeFfmpegMedia(env.work, name, args, name));
}

/** A job for `name` (found again in the queue by a retried test), with or without speakers. */
async function videoJob(name: string, speakers: boolean): Promise<string> {
  const queued = await bridge<{ jobs: Array<{ id: string; fileName: string }> }>('queue:snapshot', {});
  const known = queued.jobs.find((j) => j.fileName === name);
  if (known) return known.id;
  await bridge('queue:resume', {});
  const form = new FormData();
  if (speakers) {
    form.set('templateId', DIARIZATION_TEMPLATE);
    form.set('params', JSON.stringify({ speakersNumber: 2 }));
  }
  form.set('file', new Blob([new Uint8Array(await makeVideo(name))], { type: 'video/webm' }), name);
  const added = await bridge<Array<{ jobId?: string }>>('queue:upload', form);
  const jobId = added[0]?.jobId ?? '';
  expect(jobId).not.toBe('');
  return jobId;
}

/** Opens a job's transcript from the Queue's detail, once its video knows its size. */
async function openReview(page: Page, jobId: string, name: string): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Queue' }).click();
  const row = page.locator(`[data-testid=job-row][data-id="${jobId}"]`);
  await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 150_000 });
  await row.dblclick();
  await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();
  const review = page.getByTestId('review');
  await expect(review.getByRole('heading', { level: 1 })).toContainText(name);
  await expect(review.getByTestId('transcript-paragraph').first()).toBeVisible();
  await expect
    .poll(() => review.locator('video').evaluate((m: HTMLVideoElement) => m.videoHeight), { timeout: 20_000 })
    .toBeGreaterThan(0);
  return review;
}

/**
 * Lines of transcript text wholly in view: the distinct line boxes of the words inside both the
 * transcript list's box and the window (a speaker's name and time above a paragraph are not counted).
 */
const visibleLines = (page: Page): Promise<number> =>
  page.getByTestId('transcript-list').evaluate((list) => {
    const box = list.getBoundingClientRect();
    const top = Math.max(box.top, 0);
    const bottom = Math.min(box.bottom, window.innerHeight);
    const lines = new Set<number>();
    for (const w of Array.from(list.querySelectorAll<HTMLElement>('[data-w]')))
      for (const r of Array.from(w.getClientRects()))
        if (r.height > 0 && r.top >= top - 0.5 && r.bottom <= bottom + 0.5) lines.add(Math.round(r.top));
    return lines.size;
  });

/** Nothing of the review runs out of the window: no part of it is only reachable by scrolling the page. */
const overflow = (page: Page): Promise<{ x: number; y: number }> =>
  page.evaluate(() => ({
    x: document.documentElement.scrollWidth - window.innerWidth,
    y: document.documentElement.scrollHeight - window.innerHeight,
  }));

for (const speakers of [false, true]) {
  const name = speakers ? 'short-window-speakers.webm' : 'short-window.webm';
  const kind = speakers ? 'with speakers' : 'one voice';

  test(`at 800 × 600 the review keeps at least five lines of the transcript in view (${kind})`, async ({ page }) => {
    test.setTimeout(300_000);
    const jobId = await videoJob(name, speakers);
    await page.setViewportSize({ width: 800, height: 600 });
    const problems = await openApp(page);
    const review = await openReview(page, jobId, name);
    const fold = review.getByTestId('side-fold');
    const markers = review.getByTestId('markers-panel');

    // Folded: one line says what is there; the transcript has the room.
    await expect(fold).toBeVisible();
    await expect(fold).toHaveAttribute('aria-expanded', 'false');
    await expect(markers).toBeHidden();
    for (const scheme of THEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      const lines = await visibleLines(page);
      console.log(`800 × 600 ${kind} ${scheme}: ${lines} lines of transcript in view`);
      expect(lines).toBeGreaterThanOrEqual(5);
      expect(await overflow(page)).toEqual({ x: 0, y: 0 });
      await shot(page, `43-review-800x600-${speakers ? 'speakers' : 'plain'}-${scheme}`);
      await expectNoSeriousAxe(page, `review 800 × 600 ${kind} ${scheme}`);
    }

    // The keyboard unfolds them (Enter on the fold), and folds them again.
    await fold.focus();
    await page.keyboard.press('Enter');
    await expect(fold).toHaveAttribute('aria-expanded', 'true');
    await expect(markers).toBeVisible();
    await expect(markers.getByRole('button', { name: /Add marker/ })).toBeVisible();
    await shot(page, `43-review-800x600-${speakers ? 'speakers' : 'plain'}-unfolded`);
    await expectNoSeriousAxe(page, `review 800 × 600 ${kind} unfolded`);
    await page.keyboard.press('Enter');
    await expect(markers).toBeHidden();

    // M adds a marker at the playhead with its name ready to type, unfolding the panel.
    await review.getByTestId('transcript-list').focus();
    await page.keyboard.press('m');
    await expect(fold).toHaveAttribute('aria-expanded', 'true');
    const nameField = markers.getByRole('textbox', { name: 'Name' });
    await expect(nameField).toBeFocused();
    await page.keyboard.type('Short window');
    await page.keyboard.press('Enter');
    await expect(markers).toContainText('Short window');
    await expect(fold).toContainText(/\d+ markers?\)/);
    // The mouse folds them again, and the transcript has its lines back.
    await fold.click();
    await expect(markers).toBeHidden();
    expect(await visibleLines(page)).toBeGreaterThanOrEqual(5);

    // The larger player is still a key away (T), and says how to go back.
    await page.keyboard.press('t');
    const larger = review.getByTestId('player-larger');
    await expect(larger).toHaveText('Smaller player');
    await shot(page, `43-review-800x600-${speakers ? 'speakers' : 'plain'}-larger`);
    await larger.click();
    await expect(larger).toHaveText('Larger player');
    expect(problems).toEqual([]);
  });
}

test('at 1920 × 1080 the review shows its player, hint and side panels unfolded', async ({ page }) => {
  test.setTimeout(300_000);
  const name = 'short-window-speakers.webm';
  const jobId = await videoJob(name, true);
  await page.setViewportSize({ width: 1920, height: 1080 });
  const problems = await openApp(page);
  const review = await openReview(page, jobId, name);
  // Beside the transcript there is room: no fold, the markers shown.
  await expect(review.getByTestId('side-fold')).toBeHidden();
  await expect(review.getByTestId('markers-panel')).toBeVisible();
  await expect(review.getByTestId('transcript-status')).toContainText('or select words and press Enter');
  const height = await review.locator('video').evaluate((v) => v.getBoundingClientRect().height);
  expect(height).toBeGreaterThan(150);
  for (const scheme of THEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    const lines = await visibleLines(page);
    console.log(`1920 × 1080 with speakers ${scheme}: ${lines} lines of transcript in view`);
    expect(lines).toBeGreaterThanOrEqual(5);
    expect(await overflow(page)).toEqual({ x: 0, y: 0 });
    await shot(page, `43-review-1920x1080-${scheme}`);
    await expectNoSeriousAxe(page, `review 1920 × 1080 ${scheme}`);
  }
  // Made larger, the button says how to go back (S3-15), at both sizes.
  const larger = review.getByTestId('player-larger');
  await larger.click();
  await expect(larger).toHaveText('Smaller player');
  for (const size of [
    { width: 800, height: 600 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of THEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(larger).toHaveText('Smaller player');
      await shot(page, `43-review-smaller-player-${scheme}-${size.width}`);
      await expectNoSeriousAxe(page, `review larger player ${scheme} ${size.width}`);
    }
  }
  await larger.click();
  await expect(larger).toHaveText('Larger player');
  expect(problems).toEqual([]);
});
