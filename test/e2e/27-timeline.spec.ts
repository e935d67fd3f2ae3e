/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// On the editor's timeline: the job's detail says where its editor formats start; the review shows
// the running timecode beside the player and keeps the editor's own markers (M, the button, rename,
// delete, undo), which reach the EDL beside the source.
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { QueueSnapshot } from '../../preload/contract.js';
import {
  axe,
  bridge,
  env,
  expectNoSeriousAxe,
  go,
  keepSettingsForSpec,
  openApp,
  shot,
  steadyForAxe,
} from './helpers.js';

keepSettingsForSpec(['defaults']);

/** Spoken English under a 25 fps picture, as WebM (Chromium plays it). */
function clip(dir: string): string {
  const wav = path.join(dir, 'timeline-speech.wav');
  const out = path.join(dir, 'timeline.webm');
  const say = spawnSync('espeak-ng', [
    ...['-w', wav, '-s', '150'],
    'Welcome back. This is the part of the interview we will keep. The bridge opened in the spring of that year.',
  ]);
  expect(say.status, String(say.stderr)).toBe(0);
  const ff = spawnSync('ffmpeg', [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25', '-i', wav],
    // Encoded for speed (the machine is shared): the flow reads the timecode, not the picture's quality.
    ...['-shortest', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k'],
    ...['-c:a', 'libopus', out],
  ]);
  expect(ff.status, String(ff.stderr)).toBe(0);
  return out;
}

test('the timeline start in the job, the running timecode and the editor’s markers in the review', async ({ page }) => {
  test.setTimeout(240_000);
  await bridge('settings:update', {
    patch: {
      defaults: {
        output: {
          formats: ['json', 'srt', 'edl', 'fcpxml', 'premiere'],
          timeline: { start: '01:00:00:00', defaultRate: '25' },
        },
      },
    },
  });
  const form = new FormData();
  form.set('templateId', '669fee048452492b62cfad39');
  form.set('params', JSON.stringify({ speakersNumber: 2 }));
  form.set('file', new Blob([readFileSync(clip(env.work))], { type: 'video/webm' }), 'timeline.webm');
  const added = await bridge<Array<{ jobId?: string }>>('queue:upload', form);
  const jobId = added[0]?.jobId ?? '';
  // A spec before may have left the queue paused (the screens' seed does): this file must run.
  await bridge('queue:resume');

  const problems = await openApp(page);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await go(page, 'Queue');
  const row = page.locator('[data-testid=job-row][data-name="timeline.webm"]');
  await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 90_000 });
  await row.dblclick();
  const detail = page.getByTestId('job-detail');
  await expect(detail.getByTestId('timeline-start')).toContainText('Starts at 01:00:00:00 · 25 fps');
  await shot(page, 'timeline-job-detail');
  await detail.getByRole('button', { name: 'Transcript' }).click();

  const review = page.getByTestId('review');
  await expect(review.getByRole('heading', { level: 1 })).toBeFocused();
  const clock = review.getByTestId('running-timecode');
  await expect(clock).toContainText('01:00:00:00');
  await expect(clock).toContainText('25 fps');
  // Seek to a word: the clock reads its frame on the timeline (25 fps: ⌊ms / 40⌋ frames).
  const list = review.getByTestId('transcript-list');
  const word = list.locator('[data-w="6"]');
  await word.click();
  const video = review.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.5);
  const t = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  const f = Math.floor(Math.round(t * 1000) / 40);
  const expected = `01:00:${String(Math.floor(f / 25)).padStart(2, '0')}:${String(f % 25).padStart(2, '0')}`;
  await expect(clock).toContainText(expected);

  // M adds a marker at the playhead, its name ready to type.
  await review.getByRole('heading', { level: 1 }).focus();
  await page.keyboard.press('m');
  const panel = review.getByTestId('markers-panel');
  const name = panel.getByLabel('Name');
  await expect(name).toBeFocused();
  await name.fill('Good bite');
  await panel.getByLabel('Note').fill('Keep for the open');
  await panel.getByLabel('Colour').selectOption('Green');
  await name.press('Enter');
  await expect(panel.getByTestId('marker')).toHaveCount(1);
  await expect(panel.getByTestId('marker')).toContainText('Good bite');
  await expect(panel.getByTestId('marker')).toContainText(expected);
  await expect(review.getByTestId('transcript-status')).toContainText('Saved · results updated');
  const snap = await bridge<QueueSnapshot>('queue:snapshot');
  const edl = snap.jobs.find((j) => j.id === jobId)!.results.find((r) => r.format === 'edl')!.path;
  // The add is saved first and the name and colour as a second change: the file follows within seconds.
  await expect
    .poll(() => readFileSync(edl, 'utf8'), { timeout: 5000 })
    .toContain(`|C:ResolveColorGreen |M:Good bite |D:1`);

  // The button adds a second one; Delete takes it away, and Undo brings it back.
  await panel.getByRole('button', { name: 'Add marker' }).click();
  await expect(panel.getByTestId('marker')).toHaveCount(2);
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await panel.getByRole('button', { name: 'Delete Marker 2' }).click();
  await expect(panel.getByTestId('marker')).toHaveCount(1);
  await review.getByRole('heading', { level: 1 }).focus();
  await page.keyboard.press('Control+z');
  await expect(panel.getByTestId('marker')).toHaveCount(2);
  // Clicking a marker seeks there (after the playhead moved away).
  await list.locator('[data-w="1"]').click();
  await panel.getByRole('button', { name: /^\d\d:\d\d:\d\d:\d\d Good bite$/ }).click();
  await expect
    .poll(async () => Math.abs((await video.evaluate((v: HTMLVideoElement) => v.currentTime)) - t))
    .toBeLessThan(0.05);

  for (const [scheme, size] of [
    ['light', { width: 1920, height: 1080 }],
    ['dark', { width: 1920, height: 1080 }],
    ['light', { width: 800, height: 600 }],
    ['dark', { width: 800, height: 600 }],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(size);
    await expectNoSeriousAxe(page, `timeline ${scheme} ${size.width}`, '[data-testid=review]');
    await shot(page, `timeline-review-${scheme}-${size.width}`);
  }
  expect(problems).toEqual([]);
});

test('Settings: files added by hand start at a fixed timecode on a chosen rate, with the markers chosen', async ({
  page,
}) => {
  const problems = await openApp(page);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await go(page, 'Settings');
  await page.locator('#default-out-tc-from').selectOption('fixed');
  const start = page.locator('#default-out-tc-start');
  await start.fill('01:00:00');
  await expect(page.getByText('Write it as HH:MM:SS:FF')).toBeVisible();
  await start.fill('00:59:50;00');
  await page.locator('#default-out-tc-rate').selectOption('29.97df');
  await page.getByRole('checkbox', { name: 'Chapters (chapter recipe)' }).first().check();
  await page.getByRole('checkbox', { name: 'Pull quotes (recipe)' }).first().check();
  await page.getByRole('checkbox', { name: 'Speaker turns' }).first().uncheck();
  await page.locator('#default-out-tc-rate').scrollIntoViewIfNeeded();
  await shot(page, 'timeline-settings');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect
    .poll(async () => (await bridge<{ defaults: { output: unknown } }>('settings:get')).defaults.output)
    .toMatchObject({
      timeline: { start: '00:59:50;00', defaultRate: '29.97df' },
      markers: ['editor', 'chapters', 'quotes'],
    });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await steadyForAxe(page);
    const { violations } = await axe(page).analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  }
  await page.setViewportSize({ width: 800, height: 600 });
  await page.locator('#default-out-tc-rate').scrollIntoViewIfNeeded();
  await shot(page, 'timeline-settings-800');
  // Back to the media's own timecode for the flows that follow.
  await page.locator('#default-out-tc-from').selectOption('source');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect
    .poll(
      async () =>
        (await bridge<{ defaults: { output: { timeline?: { start: string } } } }>('settings:get')).defaults.output
          .timeline?.start,
    )
    .toBe('source');
  expect(problems).toEqual([]);
});
