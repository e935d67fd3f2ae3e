/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// The editor walkthrough of December 2026 (../shared/reviews/editor-walkthrough-2026-12.md), its
// steps run again for S1-1, S1-2, S2-1, S2-3, S2-4, S2-5, S2-6 and S3 2, 3, 6: a watch folder of
// camera cards with an output folder, a podcast folder with the Podcast recipe, Sluice restarted on
// the same state. Each finding's screen is saved as test-results/walkthrough-2026-12/<finding>.png
// (test/e2e/after/2026-12/ keeps the ones the note cites), and each step checks what the
// walkthrough found broken.
import { expect, test, type Page } from '@playwright/test';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TranscriptView } from '../../preload/contract.js';
import { allStreams } from '../helpers/service.js';
import { bridge, expectNoSeriousAxe, go, jobRow, openApp, toneWav } from './helpers.js';
import { RestartableServe, SANDBOX_KEY } from './restartable.js';

// One story in order, on one server and one page; each step may wait on processing and a restart.
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIARIZATION = '669fee048452492b62cfad39';
const CARD_FORMATS = ['json', 'srt', 'vtt', 'txt', 'docx', 'fcpxml', 'ttml', 'edl', 'premiere'];

let dir: string;
let watch: string;
let out: string;
let podcast: string;
let sluice: RestartableServe;
let page: Page;
let problems: string[] = [];
/** C0001's run after History's Re-run (S1-2), reviewed again in S2-1. */
let rerunId = '';

const DJI = { dir: 'Day1/DJI', clip: 'DJI_20261207_0001_D.wav', to: 'DJI_0001_Bruecke_Anflug.wav' };
const SONY = { dir: 'Day1/SONY_FX3/PRIVATE/M4ROOT/CLIP', clip: 'C0001.wav' };
const EPISODE = 'Colourist Podcast Ep12 – Mira (final mix).wav';

async function shotOf(finding: string): Promise<void> {
  await page.screenshot({ path: path.join(root, 'test-results/walkthrough-2026-12', `${finding}.png`) });
}

interface Job {
  id: string;
  fileName: string;
  state: string;
  results: Array<{ format: string; path: string }>;
}
const jobs = async (): Promise<Job[]> => (await bridge<{ jobs: Job[] }>('queue:snapshot')).jobs;
const jobNamed = async (name: string): Promise<Job | undefined> => (await jobs()).find((j) => j.fileName === name);
const open = (jobId: string): Promise<TranscriptView> => bridge<TranscriptView>('transcript:open', { jobId });
/** Streams the service holds of a file of this name, counted at the service. */
const streamsOf = async (name: string): Promise<number> =>
  (await allStreams(sluice.sandboxUrl, SANDBOX_KEY)).filter((s) => s.name === name).length;

/** Writes a file into a watched folder whole, as a finished copy: made beside, then renamed in. */
function copyIn(folder: string, name: string, bytes: Buffer): string {
  mkdirSync(folder, { recursive: true });
  const made = path.join(dir, 'made', name);
  mkdirSync(path.dirname(made), { recursive: true });
  writeFileSync(made, bytes);
  renameSync(made, path.join(folder, name));
  return path.join(folder, name);
}

/** Opens the review from the Queue: the clip's row (or, of two runs of one clip, the run's). */
async function openReview(name: string, jobId?: string): Promise<void> {
  await go(page, 'Queue');
  const row = jobId ? page.locator(`[data-testid=job-row][data-id="${jobId}"]`) : jobRow(page, name);
  await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 120_000 });
  await row.dblclick();
  await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();
  const review = page.getByTestId('review');
  await expect(review.getByTestId('transcript-paragraph').first()).toBeVisible();
  await expect(review.getByRole('heading', { level: 1 })).toContainText(name);
}

async function closeReview(): Promise<void> {
  await page.getByTestId('review').getByRole('button', { name: 'Close the transcript' }).click();
  await expect(page.getByTestId('review')).toHaveCount(0);
}

async function historySearch(q: string): Promise<void> {
  await go(page, 'History');
  const box = page.getByRole('searchbox', { name: 'Search file names' });
  await box.fill('');
  await box.fill(q);
}

/** The media an editor file links: FCPXML's asset `src`, Premiere's `pathurl`. */
function linkedMedia(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const urls = [...text.matchAll(/\bsrc="(file:[^"]+)"/g), ...text.matchAll(/<pathurl>(file:[^<]+)<\/pathurl>/g)];
  return urls.map((m) => fileURLToPath(m[1]!.replaceAll('&amp;', '&')));
}

const box = (type: string, body: Buffer): Buffer => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  mkdirSync(path.join(root, 'test-results/walkthrough-2026-12'), { recursive: true });
  dir = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-walkthrough-'));
  watch = path.join(dir, 'watch');
  out = path.join(dir, 'out');
  podcast = path.join(dir, 'podcast');
  for (const d of [watch, out, podcast, path.join(dir, 'state')]) mkdirSync(d);
  sluice = new RestartableServe(path.join(dir, 'state'));
  await sluice.open(['--speed-factor', '0.02']);
  // (A page of a context of its own: axe needs one, and the page lives across the tests.)
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  page = await context.newPage();
  problems = await openApp(page);
  await bridge('folders:add', {
    folder: {
      path: watch,
      outputDir: out,
      templateId: DIARIZATION,
      params: { speakersNumber: 2 },
      output: { formats: CARD_FORMATS, pattern: '{name}', languageSuffix: null, txtTimestamps: false },
    },
  });
  await bridge('folders:add', {
    folder: {
      path: podcast,
      templateId: DIARIZATION,
      params: { speakersNumber: 2 },
      recipe: 'podcast',
      output: {
        formats: ['json', 'srt', 'vtt', 'txt', 'chapters', 'shownotes'],
        pattern: '{name}',
        languageSuffix: null,
        txtTimestamps: false,
      },
    },
  });
  // The card dump: each clip a tone of its own (distinct bytes), and the podcast episode.
  copyIn(path.join(watch, DJI.dir), DJI.clip, toneWav(6, 330));
  copyIn(path.join(watch, SONY.dir), SONY.clip, toneWav(8, 410));
  copyIn(podcast, EPISODE, toneWav(200, 520));
  await expect
    .poll(async () => (await jobs()).map((j) => `${j.fileName} ${j.state}`).sort(), { timeout: 180_000 })
    .toEqual([`${DJI.clip} completed`, `${SONY.clip} completed`, `${EPISODE} completed`].sort());
});

test.afterAll(async () => {
  await page?.context().close();
  await sluice?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('S2-5: a clip renamed after it finished: its FCPXML and Premiere XML link the media where it is now', async () => {
  // The review first (S1-1's steps 2): a word corrected and the speaker named, in the review.
  await openReview(DJI.clip);
  const review = page.getByTestId('review');
  const list = review.getByTestId('transcript-list');
  await list.locator('[data-w="0"]').dblclick();
  await list.getByTestId('inline-input').fill('Drohnenflug');
  await list.getByTestId('inline-input').press('Enter');
  await expect(list.locator('[data-w="0"]')).toHaveText('Drohnenflug');
  const label = list.getByTestId('speaker-label').first();
  await label.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Pilot Jonas');
  await page.keyboard.press('Enter');
  await expect(list.getByTestId('speaker-label').filter({ hasText: 'Pilot Jonas' })).not.toHaveCount(0);
  await expect(review.getByTestId('transcript-status')).toContainText('Saved');
  const outDir = path.join(out, DJI.dir);
  const stem = (n: string): string => path.join(outDir, n.replace(/\.wav$/, ''));
  await expect.poll(() => readFileSync(`${stem(DJI.clip)}.srt`, 'utf8')).toContain('Pilot Jonas: Drohnenflug');
  await closeReview();

  renameSync(path.join(watch, DJI.dir, DJI.clip), path.join(watch, DJI.dir, DJI.to));
  await expect(jobRow(page, DJI.to)).toHaveCount(1, { timeout: 30_000 });
  const media = path.join(watch, DJI.dir, DJI.to);
  await expect
    .poll(() => existsSync(`${stem(DJI.to)}.fcpxml`) && linkedMedia(`${stem(DJI.to)}.fcpxml`))
    .toEqual([media]);
  await expect.poll(() => linkedMedia(`${stem(DJI.to)}.premiere.xml`)).toEqual([media]);
  expect(existsSync(`${stem(DJI.clip)}.fcpxml`)).toBe(false);
  await jobRow(page, DJI.to).click();
  const detail = page.getByTestId('job-detail');
  await expect(detail).toContainText(media);
  await expect(detail.getByTestId('earlier-paths')).toContainText(path.join(watch, DJI.dir, DJI.clip));
  await shotOf('S2-5-renamed-clip-links-new-path');
  await page.keyboard.press('Escape');
});

test('S1-2: a re-run from History writes in the output folder, nothing in the card, and names the review work', async () => {
  const c0001 = (await jobNamed(SONY.clip))!;
  let view = await open(c0001.id);
  for (const edit of [
    { kind: 'replace', from: 0, to: 1, text: 'harbour office' },
    { kind: 'renameSpeaker', speaker: view.speakers[0]!.id, name: 'Hélène Dubois' },
    { kind: 'addMarker', atMs: 1500, name: 'Wide shot ok', note: '', colour: 'Blue' },
  ]) {
    view = await bridge<TranscriptView>('transcript:edit', { jobId: c0001.id, revision: view.revision, edit });
  }
  const cardDir = path.join(watch, SONY.dir);
  const outDir = path.join(out, SONY.dir);
  await expect.poll(() => readFileSync(path.join(outDir, 'C0001.srt'), 'utf8')).toContain('Hélène Dubois: harbour');

  await historySearch('C0001');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(1);
  await rows.first().click();
  const detail = page.getByTestId('history-detail');
  await detail.getByRole('button', { name: 'Re-run' }).click();
  const confirm = detail.getByRole('group', { name: 'Confirm re-run' });
  await expect(confirm.getByTestId('rerun-review-work')).toContainText(
    '1 correction, 1 speaker name and 1 marker: carried over',
  );
  await confirm.scrollIntoViewIfNeeded();
  await shotOf('S1-2-rerun-confirmation-names-review-work');
  await expectNoSeriousAxe(page, 're-run confirmation', '[data-testid=history-detail]');
  await confirm.getByRole('button', { name: 'Re-run and replace' }).click();
  await expect
    .poll(async () => (await jobs()).find((j) => j.fileName === SONY.clip && j.id !== c0001.id)?.state, {
      timeout: 90_000,
    })
    .toBe('completed');
  rerunId = (await jobs()).find((j) => j.fileName === SONY.clip && j.id !== c0001.id)!.id;
  expect(readdirSync(cardDir)).toEqual([SONY.clip]);
  const srt = readFileSync(path.join(outDir, 'C0001.srt'), 'utf8');
  expect(srt).toContain('Hélène Dubois: harbour office');
  await page.getByRole('button', { name: 'Close details' }).click();
});

test('S2-1: a marker name and note typed, then History clicked without Enter: kept', async () => {
  const c0001 = (await jobs()).find((j) => j.id === rerunId)!;
  await openReview(SONY.clip, rerunId);
  const review = page.getByTestId('review');
  await review.getByRole('heading', { level: 1 }).focus();
  await page.keyboard.press('m');
  const panel = review.getByTestId('markers-panel');
  await expect(panel.getByLabel('Name')).toBeFocused();
  await panel.getByLabel('Name').fill('Crane delay — use in teaser');
  await panel.getByLabel('Note').fill('the crane shot at the quay');
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'History' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  await expect
    .poll(async () => (await open(c0001.id)).markers?.map((m) => `${m.name} / ${m.note}`))
    .toContain('Crane delay — use in teaser / the crane shot at the quay');
  const edl = c0001.results.find((r) => r.format === 'edl')!.path;
  await expect.poll(() => readFileSync(edl, 'utf8')).toContain('|M:Crane delay - use in teaser');
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Queue' }).click();
  await expect(review.getByRole('heading', { level: 1 })).toContainText(SONY.clip);
  await expect(panel.getByTestId('marker').filter({ hasText: 'Crane delay — use in teaser' })).toHaveCount(1);
  await shotOf('S2-1-marker-typed-then-left-kept');
  await closeReview();
});

test('S2-4: Replace all reaches the pull quotes of the show notes', async () => {
  const episode = (await jobNamed(EPISODE))!;
  const before = await open(episode.id);
  const quote = before.outline?.quotes[0];
  expect(quote).toBeDefined();
  const folded = (w: string): string => w.toLowerCase().replace(/[^\p{L}]/gu, '');
  const spoken = new Set(before.words.map((w) => folded(w.text)));
  const wrong = quote!.text
    .split(/\s+/)
    .map(folded)
    .find((w) => w.length >= 5 && spoken.has(w));
  expect(wrong, quote!.text).toBeDefined();

  await openReview(EPISODE);
  const review = page.getByTestId('review');
  await review.getByTestId('transcript-list').focus();
  await page.keyboard.press('Control+f');
  await review.getByTestId('find-input').fill(wrong!);
  await expect(review.getByTestId('find-bar')).toContainText(/\d+ match/);
  await review.getByTestId('replace-input').fill('Mira');
  await review.getByTestId('replace-all').click();
  await expect(review.getByTestId('find-bar')).toContainText('Replaced');
  await expect(review.getByTestId('transcript-status')).toContainText('Saved · results updated');
  const quotes = review.getByTestId('chapters-panel').getByTestId('quote');
  await expect(quotes.first()).toContainText('Mira');
  await expect(quotes.first()).not.toContainText(new RegExp(`\\b${wrong}\\b`, 'i'));
  const notes = readFileSync(episode.results.find((r) => r.format === 'shownotes')!.path, 'utf8');
  const pull = notes.slice(notes.indexOf('## Pull quotes'));
  expect(pull).toContain('Mira');
  expect(pull.split('\n').filter((l) => l.startsWith('> ') && new RegExp(`\\b${wrong}\\b`, 'i').test(l))).toEqual([]);
  await quotes.first().scrollIntoViewIfNeeded();
  await shotOf('S2-4-replace-all-reaches-pull-quotes');
  await page.keyboard.press('Escape');
  await closeReview();
});

test('S1-1, S2-3, S3-2, S3-3: after a restart the renamed clip is not billed again, the pause stays, History names it as it is now', async () => {
  // S2-3's step 1: Pause (through the bridge, as the Queue's button sends it; it shows with work queued).
  await bridge('queue:pause');
  await go(page, 'Queue');
  await expect(page.getByTestId('pause-banner')).toContainText('Paused by you.');
  const url = await sluice.restart();
  await page.goto(url);
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();

  // The start has walked the card: every clip at its name now is known, none taken as new.
  const rescanned = await bridge<Array<{ path: string; lastRescan?: { newFiles: number; alreadyProcessed: number } }>>(
    'folders:rescan',
    {},
  );
  expect(rescanned.find((f) => f.path === watch)?.lastRescan).toMatchObject({ newFiles: 0, alreadyProcessed: 2 });
  expect(await streamsOf(DJI.clip)).toBe(1);
  expect(await streamsOf(DJI.to)).toBe(0);
  expect((await jobs()).filter((j) => j.fileName === DJI.to).map((j) => j.state)).toEqual(['completed']);
  const srt = path.join(out, DJI.dir, DJI.to.replace(/\.wav$/, '.srt'));
  expect(readFileSync(srt, 'utf8')).toContain('Pilot Jonas: Drohnenflug');

  await historySearch('DJI');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-name', DJI.to);
  await shotOf('S1-1-renamed-clip-after-restart-one-entry');
  // S3-3: the clip under its name now, its earlier name in the detail.
  await rows.first().click();
  const earlier = page.getByTestId('history-detail').getByTestId('earlier-names');
  await expect(earlier).toContainText(DJI.clip);
  await earlier.scrollIntoViewIfNeeded();
  await shotOf('S3-3-history-current-name-earlier-in-detail');
  await page.getByRole('button', { name: 'Close details' }).click();
  // S3-2: the renamed speaker is found.
  await historySearch('pilot jonas');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-name', DJI.to);
  await shotOf('S3-2-renamed-speaker-found');

  // S2-3: the pause is still there after the restart, and a file copied in now waits.
  await go(page, 'Queue');
  const banner = page.getByTestId('pause-banner');
  await expect(banner).toContainText('Paused by you.');
  const late = 'After_restart_while_paused.wav';
  copyIn(path.join(watch, 'Day2'), late, toneWav(3, 610));
  await expect(jobRow(page, late)).toHaveAttribute('data-state', 'queued', { timeout: 30_000 });
  expect(await streamsOf(late)).toBe(0);
  await shotOf('S2-3-pause-kept-after-restart');
  await expectNoSeriousAxe(page, 'queue paused after a restart');
  await banner.getByRole('button', { name: 'Resume' }).click();
  await expect(jobRow(page, late)).toHaveAttribute('data-state', 'completed', { timeout: 60_000 });
  expect(await streamsOf(late)).toBe(1);
});

test('S2-6: a clip that will never be whole is said so once it stops changing, with Retry and Ignore', async () => {
  await bridge('settings:update', { patch: { queue: { incompleteAfterMs: 5000 } } });
  // What a camera leaves when its battery dies: its media data, no index (moov).
  const ftyp = box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2mp41', 'latin1'));
  copyIn(
    path.join(watch, 'Day1/GOPRO'),
    'GX010099_truncated.MP4',
    Buffer.concat([ftyp, box('mdat', Buffer.alloc(300_000, 7))]),
  );
  await go(page, 'Settings');
  const folder = page
    .getByRole('region', { name: 'Watch folders' })
    .getByTestId('watch-folder')
    .filter({ hasText: watch });
  await expect(folder).toContainText('not a complete MP4', { timeout: 30_000 });
  await expect(folder).toContainText('no index (moov)');
  await go(page, 'Queue');
  // Not "Waiting for the copy to finish" for ever: the Queue says what is wrong, and offers what to do.
  await expect(page.getByTestId('copying')).toHaveCount(0);
  const clip = page.getByTestId('not-whole').getByTestId('skipped-file').filter({ hasText: 'GX010099_truncated.MP4' });
  await expect(clip).toContainText('no index (moov)');
  await expect(clip.getByRole('button', { name: 'Retry GX010099_truncated.MP4' })).toBeVisible();
  await expect(clip.getByRole('button', { name: 'Ignore GX010099_truncated.MP4' })).toBeVisible();
  await shotOf('S2-6-never-whole-said');
});

test('S3-6: an empty file and a second copy of a card are not silent, and a rescan says what it queued', async () => {
  copyIn(path.join(watch, 'Day1/BROKEN'), 'EMPTY_CARD_ERROR.MP4', Buffer.alloc(0));
  cpSync(path.join(watch, 'Day1/SONY_FX3'), path.join(watch, 'Backup_Day1/SONY_FX3'), { recursive: true });
  await go(page, 'Settings');
  const folder = page
    .getByRole('region', { name: 'Watch folders' })
    .getByTestId('watch-folder')
    .filter({ hasText: watch });
  const before = (await jobs()).length;
  const summary = folder.getByTestId('rescan-summary');
  // Rescan until the backup's copy has settled and been met (it was copied just now): then every
  // file is decided, and the copy is counted as what it is.
  await expect
    .poll(
      async () => {
        await folder.getByRole('button', { name: 'Rescan' }).click();
        await expect(summary).toContainText('Rescan:');
        return (await summary.textContent()) ?? '';
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .toMatch(/second cop/);
  // Nothing counted as queued that is not: the empty file, the clip never whole and the card's
  // second copy are counted by reason, and each is listed with why under the folder's Skipped (N).
  await expect(summary).toHaveText(/^Rescan: \d+ new files? — 0 queued, .*second cop/);
  await expect(summary).toContainText('1 empty');
  await expect(summary).toContainText('1 not whole');
  await folder.getByTestId('skips-toggle').click();
  const list = folder.getByRole('list', { name: 'Files not queued from this folder' });
  await expect(list.locator('li[data-reason=empty]')).toContainText('EMPTY_CARD_ERROR.MP4');
  await expect(list.locator('li[data-reason=second-copy]').first()).toContainText('A second copy of');
  await folder.scrollIntoViewIfNeeded();
  await shotOf('S3-6-skips-and-rescan-count');
  expect((await jobs()).length).toBe(before);
  expect(problems.filter((m) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(m))).toEqual([]);
});
