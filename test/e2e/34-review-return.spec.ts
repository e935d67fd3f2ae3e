/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// The review as an editor's workplace: leaving it for another screen and coming back finds the same
// file, paragraph and playhead (paused); the video player can be made larger (and full screen) while
// audio keeps its one-line player; J/K/L shuttle as in an NLE; a paragraph being corrected wraps.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { bridge, env, expectNoSeriousAxe, openApp, shot, toneWav } from './helpers.js';

/** "Transcription + speakers": the sandbox then gives the words speakers, so many paragraphs. */
const DIARIZATION_TEMPLATE = '669fee048452492b62cfad39';
const VIDEO = 'harbour-return.webm';
const AUDIO = 'harbour-return.wav';

/** 80 s of a test pattern over a tone: a small WebM any Chromium plays (the sandbox hears the tone). */
async function makeVideo(): Promise<Buffer> {
  const out = path.join(env.work, VIDEO);
  // Without blocking the event loop: a blocked loop misses the bridge closing its idle keep-alive
  // connection, and the upload that follows is written into the closed socket (EPIPE).
  await promisify(execFile)('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x180:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    '80',
    '-c:v',
    'libvpx',
    // Encoded for speed (the machine is shared): the flow seeks and plays, whatever the picture's quality.
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-b:v',
    '150k',
    '-g',
    '25',
    '-c:a',
    'libopus',
    out,
  ]);
  return readFile(out);
}

const uploads = new Map<string, Promise<string>>();
/** A completed-to-be job for `name`, uploaded once per server (a retried test finds it in the queue). */
function job(name: string, bytes: () => Buffer | Promise<Buffer>, type: string): Promise<string> {
  let p = uploads.get(name);
  if (!p) {
    p = (async () => {
      const queued = await bridge<{ jobs: Array<{ id: string; fileName: string }> }>('queue:snapshot', {});
      const known = queued.jobs.find((j) => j.fileName === name);
      if (known) return known.id;
      // Earlier flows on this server may leave the queue paused (the screens' seed does).
      await bridge('queue:resume', {});
      const form = new FormData();
      form.set('templateId', DIARIZATION_TEMPLATE);
      form.set('params', JSON.stringify({ speakersNumber: 3 }));
      form.set('file', new Blob([new Uint8Array(await bytes())], { type }), name);
      const added = await bridge<Array<{ jobId?: string }>>('queue:upload', form);
      const jobId = added[0]?.jobId ?? '';
      expect(jobId).not.toBe('');
      return jobId;
    })();
    uploads.set(name, p);
  }
  return p;
}
const videoJob = (): Promise<string> => job(VIDEO, makeVideo, 'video/webm');
const audioJob = (): Promise<string> => job(AUDIO, () => toneWav(30), 'audio/wav');

const nav = (page: Page, name: string): Promise<void> =>
  page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name }).click();

/** Opens a job's transcript from the Queue's detail; the review's media element. */
async function openReview(page: Page, jobId: string, name: string): Promise<Locator> {
  await nav(page, 'Queue');
  const row = page.locator(`[data-testid=job-row][data-id="${jobId}"]`);
  await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 150_000 });
  await row.dblclick();
  await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();
  const review = page.getByTestId('review');
  await expect(review.getByRole('heading', { level: 1 })).toContainText(name);
  await expect(review.getByTestId('transcript-paragraph').first()).toBeVisible();
  const media = review.locator('video, audio');
  await expect
    .poll(() => media.evaluate((m: HTMLMediaElement) => m.readyState), { timeout: 20_000 })
    .toBeGreaterThan(0);
  return media;
}

/**
 * With the page's time held, the shuttle's frames ran in a burst while the element was still
 * seeking (it asks one seek at a time): once that seek lands, one more frame puts the playhead
 * where the page's time says, and the test reads it after that seek.
 */
async function lastFrame(page: Page, media: Locator): Promise<void> {
  const seeking = (): Promise<boolean> => media.evaluate((m: HTMLMediaElement) => m.seeking);
  await expect.poll(seeking).toBe(false);
  await page.clock.runFor(17);
  await expect.poll(seeking).toBe(false);
}

/** The playhead, paused or not, and the playback rate. */
const playhead = (media: Locator): Promise<{ t: number; paused: boolean; rate: number }> =>
  media.evaluate((m: HTMLMediaElement) => ({ t: m.currentTime, paused: m.paused, rate: m.playbackRate }));

/** The index of the paragraph at the top of the transcript list. */
const topParagraph = (page: Page): Promise<number> =>
  page.getByTestId('transcript-list').evaluate((list) => {
    const top = list.getBoundingClientRect().top;
    const paras = Array.from(list.querySelectorAll<HTMLElement>('[data-paragraph]'))
      .filter((p) => p.getBoundingClientRect().bottom > top + 10)
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    return Number(paras[0]?.dataset.paragraph ?? -1);
  });

/** Whether the transcript list is still scrolling (its position changes within 200 ms). */
const scrollMoving = (page: Page): Promise<boolean> =>
  page.getByTestId('transcript-list').evaluate(
    (list) =>
      new Promise<boolean>((done) => {
        const at = list.scrollTop;
        setTimeout(() => done(list.scrollTop !== at), 200);
      }),
  );

/** How far paragraph `index` starts above (negative) or below the top of the transcript list. */
const offsetOf = (page: Page, index: number): Promise<number> =>
  page.getByTestId('transcript-list').evaluate((list, i) => {
    const p = list.querySelector(`[data-paragraph="${i}"]`);
    return p ? p.getBoundingClientRect().top - list.getBoundingClientRect().top : NaN;
  }, index);

test('leaving the review for another screen and coming back finds the same file, paragraph and playhead, paused', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const jobId = await videoJob();
  const problems = await openApp(page);
  const media = await openReview(page, jobId, VIDEO);
  const review = page.getByTestId('review');
  const paragraphs = await review.getByTestId('transcript-paragraph').count();
  expect(paragraphs).toBeGreaterThan(4);

  // Well into the file: five paragraphs on (each brought to the top of the list, as far as the
  // list scrolls: the simulated transcript's length varies, and its end may stop the fifth lower),
  // then play a moment.
  for (let i = 0; i < 5; i++) await page.keyboard.press('Alt+ArrowDown');
  await expect.poll(() => topParagraph(page)).toBeGreaterThan(1);
  await page.keyboard.press('l');
  await expect.poll(async () => (await playhead(media)).paused).toBe(false);
  const playFrom = (await playhead(media)).t;
  await expect.poll(async () => (await playhead(media)).t).toBeGreaterThan(playFrom + 0.5);
  await expect.poll(() => scrollMoving(page), { intervals: [250] }).toBe(false);
  const leftAt = await topParagraph(page);

  // Ctrl+3 while it plays: Usage, the review put aside.
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  await expect(review).toHaveCount(0);
  // Ctrl+1 back to the Queue it was opened over: the same file, the same paragraph on top, the
  // playhead where it was left, paused.
  await page.keyboard.press('Control+1');
  await expect(review.getByRole('heading', { level: 1 })).toContainText(VIDEO);
  const back = review.locator('video');
  await expect.poll(() => back.evaluate((m: HTMLMediaElement) => m.readyState), { timeout: 20_000 }).toBeGreaterThan(0);
  const here = await playhead(back);
  expect(here.paused).toBe(true);
  expect(here.t).toBeGreaterThan(1);
  const top = await topParagraph(page);
  expect(top).toBe(leftAt);

  // Scroll by hand to another paragraph, seek elsewhere, then leave by the sidebar and come back.
  await review
    .getByTestId('transcript-list')
    .locator(`[data-paragraph="${top - 2}"]`)
    .scrollIntoViewIfNeeded();
  await review.getByTestId('transcript-list').evaluate((l) => l.scrollBy(0, -4000));
  await expect.poll(() => topParagraph(page)).toBe(0);
  await review.getByTestId('transcript-list').locator('[data-paragraph="1"] [data-w]').nth(1).click();
  const seekTo = (await playhead(back)).t;
  await page.keyboard.press('PageDown');
  await review.getByTestId('transcript-list').evaluate((l) => l.scrollBy(0, 150));
  // Chromium scrolls by keys smoothly: read the place once the list has come to rest.
  await expect.poll(() => scrollMoving(page), { intervals: [250] }).toBe(false);
  const shownTop = await topParagraph(page);
  const scrolled = await offsetOf(page, shownTop);
  await nav(page, 'History');
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  await expect(review).toHaveCount(0);
  await nav(page, 'Queue');
  await expect(review.getByRole('heading', { level: 1 })).toContainText(VIDEO);
  const again = review.locator('video');
  await expect
    .poll(() => again.evaluate((m: HTMLMediaElement) => m.readyState), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await expect.poll(async () => (await playhead(again)).t).toBeCloseTo(seekTo, 1);
  expect((await playhead(again)).paused).toBe(true);
  await expect.poll(() => topParagraph(page)).toBe(shownTop);
  // To the pixel, near enough: the same lines of it in view.
  await expect.poll(async () => Math.abs((await offsetOf(page, shownTop)) - scrolled)).toBeLessThan(6);
  await shot(page, 'review-return');

  // Its own screen's button closes it: the Queue's list, and the job can be opened again there.
  await nav(page, 'Queue');
  await expect(review).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Queue' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('the video player can be made larger and full screen, kept while reviewing; audio is left as it is', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const [videoId, audioId] = await Promise.all([videoJob(), audioJob()]);
  const problems = await openApp(page);
  const media = await openReview(page, videoId, VIDEO);
  const review = page.getByTestId('review');
  const larger = review.getByTestId('player-larger');
  const small = (await media.boundingBox())!;
  await expect(larger).toHaveText('Larger player');

  await larger.click();
  await expect(larger).toHaveText('Smaller player');
  await expect.poll(async () => (await media.boundingBox())!.height).toBeGreaterThan(small.height * 1.5);
  // The transcript is still there beside it, and still readable.
  const list = (await review.getByTestId('transcript-list').boundingBox())!;
  expect(list.height).toBeGreaterThan(150);
  // T toggles it, from anywhere in the review but a text field.
  await review.getByRole('heading', { level: 1 }).focus();
  await page.keyboard.press('t');
  await expect(larger).toHaveText('Larger player');
  await expect.poll(async () => Math.round((await media.boundingBox())!.height)).toBe(Math.round(small.height));
  await page.keyboard.press('t');
  await expect(larger).toHaveText('Smaller player');

  // Kept while reviewing: another screen and back.
  await page.keyboard.press('Control+2');
  await expect(review).toHaveCount(0);
  await page.keyboard.press('Control+1');
  await expect(review.getByTestId('player-larger')).toHaveText('Smaller player');
  await expect
    .poll(async () => (await review.locator('video').boundingBox())!.height)
    .toBeGreaterThan(small.height * 1.5);

  for (const size of [
    { width: 800, height: 600 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousAxe(page, `larger player ${scheme} ${size.width}`, '[data-testid=review]');
      await shot(page, `review-larger-${scheme}-${size.width}`);
    }
    await page.keyboard.press('t');
    await shot(page, `review-normal-${size.width}`);
    await page.keyboard.press('t');
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1360, height: 860 });

  // F: the browser's full screen for the video; F again leaves it.
  await review.getByRole('heading', { level: 1 }).focus();
  await page.keyboard.press('f');
  await expect.poll(() => page.evaluate(() => document.fullscreenElement?.tagName ?? '')).toBe('VIDEO');
  await page.keyboard.press('f');
  await expect.poll(() => page.evaluate(() => document.fullscreenElement?.tagName ?? '')).toBe('');

  // Audio: no picture to enlarge, so neither button, and T changes nothing.
  await review.getByRole('button', { name: 'Close the transcript' }).click();
  const audio = await openReview(page, audioId, AUDIO);
  await expect(review.getByTestId('player-larger')).toHaveCount(0);
  await expect(review.getByTestId('player-fullscreen')).toHaveCount(0);
  const before = (await audio.boundingBox())!;
  await review.getByRole('heading', { level: 1 }).focus();
  await page.keyboard.press('t');
  await page.keyboard.press('f');
  const after = (await audio.boundingBox())!;
  expect([after.width, after.height]).toEqual([before.width, before.height]);
  expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
  expect(problems).toEqual([]);
});

test('J, K and L shuttle as in an NLE, K held with J or L nudges a frame, and typing is left alone', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const jobId = await videoJob();
  // The page's clock runs as usual until the test holds it to move the playhead backwards by it.
  await page.clock.install();
  const problems = await openApp(page);
  const media = await openReview(page, jobId, VIDEO);
  const review = page.getByTestId('review');
  const shuttle = review.getByTestId('shuttle');
  await review.getByRole('heading', { level: 1 }).focus();
  // Start 30 s in, paused.
  await media.evaluate((m: HTMLMediaElement) => (m.currentTime = 30));

  // L: forward at 1×, again 2×, again 4×; K stops, and Space plays at the speed chosen before.
  await page.keyboard.press('l');
  await expect.poll(async () => await playhead(media)).toMatchObject({ paused: false, rate: 1 });
  await page.keyboard.press('l');
  await expect.poll(async () => (await playhead(media)).rate).toBe(2);
  await expect(shuttle).toContainText('2×');
  await page.keyboard.press('l');
  await expect.poll(async () => (await playhead(media)).rate).toBe(4);
  await expect(review.getByRole('combobox', { name: 'Speed' })).toHaveValue('4');
  await page.keyboard.press('k');
  await expect.poll(async () => await playhead(media)).toMatchObject({ paused: true, rate: 1 });
  await expect(shuttle).toHaveCount(0);

  // J: backwards (the element cannot play in reverse: the playhead is moved back in real time).
  // The page's time is held from here and moved on by the test: 1.5 s at 1×, then 1 s at 2×.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  const from = (await playhead(media)).t;
  await page.keyboard.press('j');
  await expect(shuttle).toContainText('◀ 1×');
  await page.clock.runFor(1500);
  await lastFrame(page, media);
  const mid = await playhead(media);
  expect(mid.paused).toBe(true);
  expect(from - mid.t).toBeGreaterThan(1.2);
  expect(from - mid.t).toBeLessThan(1.8);
  await page.keyboard.press('j');
  await expect(shuttle).toContainText('◀ 2×');
  await page.clock.runFor(1000);
  await lastFrame(page, media);
  const faster = (await playhead(media)).t;
  expect(mid.t - faster).toBeGreaterThan(1.6);
  expect(mid.t - faster).toBeLessThan(2.4);
  await page.keyboard.press('k');
  await expect(shuttle).toHaveCount(0);
  const stopped = (await playhead(media)).t;
  // Stopped means stopped: another 400 ms of the page's time leave the playhead where it is.
  await page.clock.runFor(400);
  expect((await playhead(media)).t).toBeCloseTo(stopped, 2);
  await page.clock.resume();

  // K held, J and L: one frame (25 fps here) back and on.
  await page.keyboard.down('k');
  await page.keyboard.press('j');
  await expect.poll(async () => (await playhead(media)).t).toBeCloseTo(stopped - 0.04, 2);
  await page.keyboard.press('l');
  await page.keyboard.press('l');
  await expect.poll(async () => (await playhead(media)).t).toBeCloseTo(stopped + 0.04, 2);
  await page.keyboard.up('k');
  expect((await playhead(media)).paused).toBe(true);

  // In a text field the letters are text.
  await review.getByTestId('transcript-list').locator('[data-w="3"]').dblclick();
  const field = review.getByTestId('inline-input');
  await field.fill('');
  await field.pressSequentially('jkl');
  await expect(field).toHaveValue('jkl');
  expect(await playhead(media)).toMatchObject({ paused: true, rate: 1 });
  await field.press('Escape');

  // The shortcuts list says so.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  for (const line of [
    'Play backwards; again for 2× and 4×',
    'Play; again for 2× and 4×',
    'Hold K: back or forward one frame',
    'Larger or smaller video player',
    'Video full screen',
  ])
    await expect(help).toContainText(line);
  await shot(page, 'review-shortcuts');
  expect(problems).toEqual([]);
});

test('a paragraph being corrected wraps in a field that grows with it', async ({ page }) => {
  test.setTimeout(300_000);
  const jobId = await videoJob();
  const problems = await openApp(page);
  await page.setViewportSize({ width: 800, height: 600 });
  await openReview(page, jobId, VIDEO);
  const list = page.getByTestId('review').getByTestId('transcript-list');
  // The longest paragraph on screen.
  const lengths = await list
    .getByTestId('transcript-paragraph')
    .evaluateAll((ps) => ps.map((p) => p.querySelectorAll('[data-w]').length));
  const longest = lengths.indexOf(Math.max(...lengths));
  expect(lengths[longest]).toBeGreaterThan(12);
  const para = list.getByTestId('transcript-paragraph').nth(longest);
  // The lines it takes as read: a paragraph of the simulated transcript may fit on one line.
  const readLines = await para.evaluate(
    (p) =>
      new Set(Array.from(p.querySelectorAll('[data-w]')).map((w) => Math.round(w.getBoundingClientRect().top))).size,
  );
  await para.getByRole('button', { name: 'Paragraph actions' }).click();
  await page.getByRole('button', { name: 'Correct this paragraph' }).click();
  const field = list.getByTestId('inline-input');
  await expect(field).toBeFocused();
  // Read again until the field has fitted its text: it does so before the frame is painted (a
  // ResizeObserver), which on a loaded machine can come after focus is already seen.
  const box = (): Promise<{ tag: string; lines: number; sideways: boolean; hidden: boolean }> =>
    field.evaluate((f: HTMLElement) => ({
      tag: f.tagName,
      lines: f.clientHeight / parseFloat(getComputedStyle(f).lineHeight),
      sideways: f.scrollWidth > f.clientWidth + 1,
      hidden: f.scrollHeight > f.clientHeight + 2,
    }));
  await expect.poll(box).toMatchObject({ tag: 'TEXTAREA', sideways: false, hidden: false });
  // At least the lines it took as read: wrapped, not scrolled (it must wrap once more is typed, below).
  await expect.poll(async () => (await box()).lines).toBeGreaterThan(readLines - 0.5);
  // It grows as more is typed, and Enter still applies it. The height it grows from is read once
  // two reads a moment apart agree: a fit after a late layout (a loaded machine) can still move it.
  let h = -1;
  await expect
    .poll(async () => {
      const was = h;
      h = (await field.boundingBox())!.height;
      return h === was;
    })
    .toBe(true);
  await field.press('ControlOrMeta+End');
  // Typed, then pasted twice more: together wider than the field (under 800 px here) however full its
  // last line already was, so at least one more line is needed.
  const more = ' and then the harbour master walked along the quay to the lighthouse again';
  await field.pressSequentially(more);
  await page.keyboard.insertText(more + more);
  expect(await field.evaluate((f: HTMLElement) => f.clientWidth)).toBeLessThan(more.length * 3 * 4);
  await expect.poll(async () => (await field.boundingBox())!.height).toBeGreaterThan(h);
  await expect.poll(box).toMatchObject({ sideways: false, hidden: false });
  await expect.poll(async () => (await box()).lines).toBeGreaterThan(1.5);
  await shot(page, 'review-paragraph-wraps');
  await field.press('Escape');
  await expect(field).toHaveCount(0);
  expect(problems).toEqual([]);
});
