/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// An editor's week through the renderer and the web bridge (issue 40, "Must hold"; the integration
// test of the whole week is test/runtime/rename-restart.test.ts): three clips processed from a
// watch folder; one corrected in the review (a word and the speaker's name) and then renamed while
// Sluice runs; another moved into a subfolder while Sluice is stopped; Sluice stopped and started
// again on the same state; a Rescan from Settings. Then the service holds three streams in all,
// counted at the service, every correction is in every result, every editor file links the media
// where it is now, and the Queue and History show each clip under its name now.
// The service is a stand-alone sandbox that outlives the restart, and `sluice serve` is the spec's
// own, stopped and started here (restartable.ts).
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allStreams } from '../helpers/service.js';
import { bridge, expectNoSeriousAxe, go, jobRow, openApp, shot, toneWav } from './helpers.js';
import { RestartableServe, SANDBOX_KEY } from './restartable.js';

/** "Transcription + speakers": the review then has a speaker to name. */
const DIARIZATION = '669fee048452492b62cfad39';
const FORMATS = ['json', 'srt', 'vtt', 'txt', 'fcpxml', 'premiere'] as const;
const CLIPS = ['DJI_0001.wav', 'MVI_0042.wav', 'GX010042.wav'] as const;
/** Corrected in the review, then renamed while Sluice runs. */
const REVIEWED = { clip: 'DJI_0001.wav', word: 'Brückenanflug', speaker: 'Pilot Jonas', to: 'DJI_0001_Anflug.wav' };
/** Moved into a subfolder while Sluice is stopped. */
const MOVED = { clip: 'MVI_0042.wav', to: path.join('Selects', 'MVI_0042.wav') };

interface Job {
  id: string;
  fileName: string;
  state: string;
}

let dir: string;
let card: string;
let sluice: RestartableServe;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  dir = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-week-'));
  card = path.join(dir, 'card');
  mkdirSync(card);
  mkdirSync(path.join(dir, 'state'));
  sluice = new RestartableServe(path.join(dir, 'state'));
  await sluice.open();
});

test.afterAll(async () => {
  await sluice.close();
  rmSync(dir, { recursive: true, force: true });
});

const jobs = async (): Promise<Job[]> => (await bridge<{ jobs: Job[] }>('queue:snapshot')).jobs;

/** Where each clip is now, as the editor has left it so far (relative to the card). */
const now = new Map<string, string>();
const whereNow = (clip: string): string => path.join(card, now.get(clip) ?? clip);

/** Renames or moves a clip as a file manager does. */
function move(clip: string, to: string): void {
  mkdirSync(path.dirname(path.join(card, to)), { recursive: true });
  renameSync(whereNow(clip), path.join(card, to));
  now.set(clip, to);
}

/** A result of a clip where it is now, read from disk: `{stem}.{ext}` beside the media. */
function result(clip: string, ext: string): string {
  const media = whereNow(clip);
  return readFileSync(path.join(path.dirname(media), `${path.basename(media, '.wav')}.${ext}`), 'utf8');
}

/** The media an editor file links: FCPXML's asset `src`, Premiere's `pathurl`. */
function linkedMedia(text: string): string[] {
  const urls = [...text.matchAll(/\bsrc="(file:[^"]+)"/g), ...text.matchAll(/<pathurl>(file:[^<]+)<\/pathurl>/g)];
  return urls.map((m) => fileURLToPath(m[1]!.replaceAll('&amp;', '&')));
}

async function openReview(page: Page, name: string): Promise<void> {
  await go(page, 'Queue');
  const row = jobRow(page, name);
  await expect(row).toHaveAttribute('data-state', 'completed');
  await row.dblclick();
  await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();
  const review = page.getByTestId('review');
  await expect(review.getByTestId('transcript-paragraph').first()).toBeVisible();
  await expect(review.getByRole('heading', { level: 1 })).toContainText(name);
}

test('a week of renames and a restart: one stream per clip, every correction kept, editor files linked where the media is', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const problems = await openApp(page);
  const folder = await bridge<{ id: string }>('folders:add', {
    folder: {
      path: card,
      templateId: DIARIZATION,
      params: { speakersNumber: 2 },
      cardRules: 'off',
      output: { formats: [...FORMATS], pattern: '{name}', languageSuffix: null, txtTimestamps: false },
    },
  });
  // Copied in whole, as a card dump is; each clip a tone of its own, so distinct bytes.
  const made = path.join(dir, 'made');
  mkdirSync(made);
  for (const [i, clip] of CLIPS.entries()) {
    writeFileSync(path.join(made, clip), toneWav(4 + i, 300 + 60 * i));
    renameSync(path.join(made, clip), path.join(card, clip));
  }
  await expect
    .poll(async () => (await jobs()).map((j) => `${j.fileName} ${j.state}`).sort(), { timeout: 120_000 })
    .toEqual(CLIPS.map((c) => `${c} completed`).sort());

  // The review: the first word corrected by double-click, the speaker named, no Save button.
  await openReview(page, REVIEWED.clip);
  const review = page.getByTestId('review');
  const list = review.getByTestId('transcript-list');
  await list.locator('[data-w="0"]').dblclick();
  const input = list.getByTestId('inline-input');
  await expect(input).toBeFocused();
  await input.fill(REVIEWED.word);
  await input.press('Enter');
  await expect(list.locator('[data-w="0"]')).toHaveText(REVIEWED.word);
  const label = list.getByTestId('speaker-label').first();
  await label.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(REVIEWED.speaker);
  await page.keyboard.press('Enter');
  await expect(list.getByTestId('speaker-label').filter({ hasText: REVIEWED.speaker })).not.toHaveCount(0);
  await expect(review.getByTestId('transcript-status')).toContainText('Saved');
  await expect
    .poll(() => result(REVIEWED.clip, 'srt'), { timeout: 30_000 })
    .toContain(`${REVIEWED.speaker}: ${REVIEWED.word}`);
  await shot(page, 'week-reviewed');
  await review.getByRole('button', { name: 'Close the transcript' }).click();

  // Renamed in the file manager while Sluice runs: the Queue follows the name, the results follow.
  move(REVIEWED.clip, REVIEWED.to);
  await expect(jobRow(page, REVIEWED.to)).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  await expect
    .poll(() => linkedMedia(result(REVIEWED.clip, 'fcpxml')), { timeout: 30_000 })
    .toEqual([whereNow(REVIEWED.clip)]);

  // Sluice stopped; a clip moved into a subfolder meanwhile; Sluice started again on the same state.
  const url = await sluice.restart(() => move(MOVED.clip, MOVED.to));
  // The new link in the same tab (the token is new at each start).
  await page.goto(url);
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
  await go(page, 'Queue');
  for (const clip of CLIPS) {
    await expect(jobRow(page, path.basename(whereNow(clip)))).toHaveAttribute('data-state', 'completed', {
      timeout: 30_000,
    });
  }
  await expect.poll(async () => (await jobs()).length).toBe(CLIPS.length);
  await expect(jobRow(page, MOVED.to.split(path.sep).pop()!)).toHaveCount(1);

  // A Rescan from Settings: every clip already processed, none new.
  await go(page, 'Settings');
  const item = page
    .getByRole('region', { name: 'Watch folders' })
    .getByTestId('watch-folder')
    .filter({ hasText: card });
  await item.getByRole('button', { name: 'Rescan' }).click();
  const summary = item.getByTestId('rescan-summary');
  await expect(summary).toContainText(`${CLIPS.length} already processed`);
  await expect(summary).not.toContainText(/\b[1-9]\d* new file/);
  await shot(page, 'week-rescan');
  await expectNoSeriousAxe(page, 'settings after the rescan');

  // At the service: one stream per clip, in all, each completed.
  const streams = await allStreams(sluice.sandboxUrl, SANDBOX_KEY);
  expect(streams.map((s) => s.name).sort()).toEqual([...CLIPS].sort());
  expect(streams.every((s) => s.state === 'COMPLETED')).toBe(true);
  expect((await jobs()).length).toBe(CLIPS.length);

  // Every correction in every result of the reviewed clip; every editor file links the media now.
  for (const ext of ['json', 'srt', 'vtt', 'txt', 'fcpxml', 'premiere.xml']) {
    const text = result(REVIEWED.clip, ext);
    expect(text, ext).toContain(REVIEWED.speaker);
    // The Premiere XML holds markers only: the speaker's name, the turn's first words in the note.
    expect(text, ext).toContain(REVIEWED.word);
  }
  for (const clip of CLIPS) {
    for (const ext of ['fcpxml', 'premiere.xml']) {
      expect(new Set(linkedMedia(result(clip, ext))), `${clip} ${ext}`).toEqual(new Set([whereNow(clip)]));
    }
  }

  // The corrected review after the restart, under the clip's name now.
  await openReview(page, REVIEWED.to);
  await expect(list.locator('[data-w="0"]')).toHaveText(REVIEWED.word);
  await expect(list.getByTestId('speaker-label').first()).toContainText(REVIEWED.speaker);
  await shot(page, 'week-review-after-restart');
  await review.getByRole('button', { name: 'Close the transcript' }).click();

  // History: one entry per clip, under its name now; the new name finds the renamed clip.
  await go(page, 'History');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(CLIPS.length);
  const names = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
  expect(names.sort()).toEqual(CLIPS.map((c) => path.basename(whereNow(c))).sort());
  await page.getByRole('searchbox', { name: 'Search file names' }).fill('anflug');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-name', REVIEWED.to);
  await shot(page, 'week-history');
  await expectNoSeriousAxe(page, 'history after the week');

  await bridge('folders:remove', { id: folder.id });
  // Refused connections while Sluice was stopped are the browser's, not the app's.
  expect(problems.filter((m) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(m))).toEqual([]);
});
