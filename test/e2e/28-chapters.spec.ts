/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// A job that ran the Podcast recipe: the review lists its chapters and pull quotes beside the
// transcript; a click seeks, a chapter is renamed, one added at the playhead and deleted, undo brings
// it back, and chapters.json beside the source follows each change.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import type { QueueSnapshot, TranscriptView } from '../../preload/contract.js';
import { bridge, env, expectNoSeriousAxe, go, keepSettingsForSpec, openApp, shot, toneWav } from './helpers.js';

keepSettingsForSpec(['defaults']);

function api(channel: string): { url: URL; token: string } {
  const url = new URL(env.url);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  return { url: new URL(`api/${channel}`, url.origin + url.pathname), token };
}

// Long enough for three chapters or more: the simulated answer has as many as the transcript has
// sentences (up to six), and a 90 s talk sometimes had two.
const TALK_S = 200;

test('the chapters and pull quotes of a recipe job in the review', async ({ page }) => {
  test.setTimeout(180_000);
  await bridge('settings:update', {
    patch: { defaults: { recipe: 'podcast', output: { formats: ['json', 'chapters', 'youtube', 'shownotes'] } } },
  });
  try {
    const form = new FormData();
    form.set('templateId', '669fee048452492b62cfad39');
    form.set('params', JSON.stringify({ speakersNumber: 2 }));
    form.set('file', new Blob([new Uint8Array(toneWav(TALK_S))], { type: 'audio/wav' }), 'episode.wav');
    const { url, token } = api('queue:upload');
    const up = await fetch(url, { method: 'POST', headers: { 'x-sluice-token': token }, body: form });
    const added = (await up.json()) as { ok: boolean; value: Array<{ jobId?: string }> };
    const jobId = added.value[0]?.jobId ?? '';

    const problems = await openApp(page);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await go(page, 'Queue');
    const row = page.locator('[data-testid=job-row][data-name="episode.wav"]');
    await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 90_000 });
    await row.dblclick();
    await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();

    const review = page.getByTestId('review');
    await expect(review.getByRole('heading', { level: 1 })).toBeFocused();
    const panel = review.getByTestId('chapters-panel');
    const opened = await bridge<TranscriptView>('transcript:open', { jobId });
    const outline = opened.outline!;
    expect(outline.chapters.length).toBeGreaterThanOrEqual(3);
    await expect(panel.getByTestId('chapter')).toHaveCount(outline.chapters.length);
    await expect(panel.getByTestId('quote')).toHaveCount(outline.quotes.length);
    const chaptersFile = (await bridge<QueueSnapshot>('queue:snapshot')).jobs
      .find((j) => j.id === jobId)!
      .results.find((r) => r.format === 'chapters')!.path;
    const titles = (): string[] =>
      (JSON.parse(readFileSync(chaptersFile, 'utf8')) as { chapters: Array<{ title: string }> }).chapters.map(
        (c) => c.title,
      );
    expect(titles()).toEqual(outline.chapters.map((c) => c.title));

    // A click on a chapter seeks to where it starts.
    const audio = review.locator('audio');
    const second = outline.chapters[1]!;
    // Times are on the file's timeline (00:00:22:16 at 25 fps).
    const escaped = second.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await panel.getByRole('button', { name: new RegExp(`^[\\d:;]+ ${escaped}$`) }).click({ timeout: 10_000 });
    await expect
      .poll(async () =>
        Math.abs((await audio.evaluate((a: HTMLAudioElement) => a.currentTime)) - second.startMs / 1000),
      )
      .toBeLessThan(0.05);

    // Rename: the title is ready to type; Enter saves, and chapters.json follows.
    await panel.getByRole('button', { name: `Rename ${second.title}` }).click();
    const title = panel.getByLabel('Title');
    await expect(title).toBeFocused();
    await title.fill('Opening questions');
    await title.press('Enter');
    await expect(panel.getByTestId('chapter').nth(1)).toContainText('Opening questions');
    await expect(review.getByTestId('transcript-status')).toContainText('Saved · results updated');
    await expect.poll(() => titles()[1]).toBe('Opening questions');

    // Add one at the playhead, halfway between two chapters far enough apart, and name it.
    const starts = [...outline.chapters.map((c) => c.startMs), TALK_S * 1000];
    const gap = starts.findIndex((s, i) => i > 0 && s - starts[i - 1]! >= 21_000);
    expect(gap, `chapters at ${starts.join(', ')}`).toBeGreaterThan(0);
    const atS = (starts[gap - 1]! + starts[gap]!) / 2000;
    await audio.evaluate((a: HTMLAudioElement, s: number) => {
      a.currentTime = s;
    }, atS);
    await panel.getByRole('button', { name: 'Add chapter' }).click();
    await expect(panel.getByTestId('chapter')).toHaveCount(outline.chapters.length + 1);
    await expect(title).toBeFocused();
    await title.fill('Listener mail');
    await title.press('Enter');
    await expect(panel.getByTestId('chapter').nth(gap)).toContainText('Listener mail');
    await expect.poll(() => titles()).toContain('Listener mail');

    // Delete it; Undo brings it back, in the panel and on disk.
    await panel.getByRole('button', { name: 'Delete Listener mail' }).click();
    await expect(panel.getByTestId('chapter')).toHaveCount(outline.chapters.length);
    await expect.poll(() => titles()).not.toContain('Listener mail');
    await review.getByRole('heading', { level: 1 }).focus();
    await page.keyboard.press('Control+z');
    await expect(panel.getByTestId('chapter')).toHaveCount(outline.chapters.length + 1);
    await expect.poll(() => titles()).toContain('Listener mail');
    // C adds one at the playhead from the keyboard, its title ready to type, as the button does.
    await panel.getByRole('button', { name: 'Delete Listener mail' }).click();
    await expect(panel.getByTestId('chapter')).toHaveCount(outline.chapters.length);
    await audio.evaluate((a: HTMLAudioElement, s: number) => {
      a.currentTime = s;
    }, atS);
    await review.getByRole('heading', { level: 1 }).focus();
    await page.keyboard.press('c');
    await expect(panel.getByTestId('chapter')).toHaveCount(outline.chapters.length + 1);
    await expect(title).toBeFocused();
    await title.fill('Listener mail');
    await title.press('Enter');
    await expect(panel.getByTestId('chapter').nth(gap)).toContainText('Listener mail');
    await expect.poll(() => titles()).toContain('Listener mail');
    // One 3 s after it would merge away: refused, the status saying why, nothing added.
    await audio.evaluate((a: HTMLAudioElement, s: number) => {
      a.currentTime = s;
    }, atS + 3);
    await panel.getByRole('button', { name: 'Add chapter' }).click();
    await expect(review.getByTestId('transcript-status')).toContainText(
      /“Chapter \d+” would start 3\.0 s after “Listener mail” .*at least 10 s apart/,
    );
    await expect(panel.getByTestId('chapter')).toHaveCount(outline.chapters.length + 1);
    await page.screenshot({ path: test.info().outputPath('chapter-refused.png') });
    // The first chapter cannot leave 0:00.
    await expect(panel.getByRole('button', { name: `Move to playhead: ${outline.chapters[0]!.title}` })).toBeDisabled();

    for (const [scheme, size] of [
      ['light', { width: 1920, height: 1080 }],
      ['dark', { width: 1920, height: 1080 }],
      ['light', { width: 800, height: 600 }],
      ['dark', { width: 800, height: 600 }],
    ] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(size);
      await expect(panel).toBeVisible();
      await expectNoSeriousAxe(page, `chapters ${scheme} ${size.width}`, '[data-testid=review]');
      await shot(page, `chapters-review-${scheme}-${size.width}`);
    }
    expect(problems).toEqual([]);
  } finally {
    // The flows that follow run without a recipe.
    await bridge('settings:update', { patch: { defaults: { recipe: null } } });
  }
});
