/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// The editor walkthrough of December 2026 (../shared/reviews/editor-walkthrough-2026-12.md) run
// again for the items of issue 43 that no other 43 spec walks: S2-7 (the upload speed on a slow
// line), S3-5 (the Queue names the clip's own folder), S3-10 (DJI captions players load), S3-12
// (the sandbox's Usage kept across a restart) and S3-15's snippet highlight. A `sluice serve` of
// this spec's own on the embedded sandbox, restarted on the same state. Each item's screen is saved
// in light and dark at 800 × 600 and 1920 × 1080 to test-results/walkthrough-2026-12/43/ (the
// issue's note keeps them under test/e2e/after/2026-12/43/), with axe on each.
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TranscriptView } from '../../preload/contract.js';
import { bridge, expectNoSeriousAxe, go, jobRow, pointAt, steadyForAxe, THEMES, toneWav } from './helpers.js';
import { stop } from './restartable.js';
import { startServe } from './server.js';

test.describe.configure({ mode: 'serial', timeout: 150_000 });

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SHOTS = path.join(root, 'test-results/walkthrough-2026-12/43');
const SIZES = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];
const DJI_CLIP = 'DJI_20261207_0001_D.wav';
const DJI_TELEMETRY = 'DJI_20261207_0001_D.SRT';
const TELEMETRY = '1\n00:00:00,000 --> 00:00:00,033\nF/2.8, SS 1000, ISO 100, EV 0, GPS (8.5431, 47.3769, 21)\n';
/** "Transcription + speakers", as the walkthrough's card folder. */
const DIARIZATION = '669fee048452492b62cfad39';
const SONY = { dir: 'Day1/SONY_FX3/PRIVATE/M4ROOT/CLIP', clip: 'C0001.wav' };

let dir: string;
let state: string;
let watch: string;
let out: string;
let dji: string;
let serving: { child: ChildProcess; url: string; embedded: string };
let page: Page;

interface Job {
  id: string;
  fileName: string;
  state: string;
}
const jobs = async (): Promise<Job[]> => (await bridge<{ jobs: Job[] }>('queue:snapshot')).jobs;

/** Writes a file into a watched folder whole, as a finished copy: made beside, then renamed in. */
function copyIn(folder: string, name: string, bytes: Buffer | string): void {
  mkdirSync(folder, { recursive: true });
  const made = path.join(dir, 'made', name);
  mkdirSync(path.dirname(made), { recursive: true });
  writeFileSync(made, bytes);
  renameSync(made, path.join(folder, name));
}

async function open(url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
}

async function serveOnState(): Promise<void> {
  serving = await startServe(state);
  pointAt({ url: serving.url, embedded: serving.embedded, state });
}

/**
 * The item's screen in light and dark, small and large: `region` alone when given (its part of
 * the window), axe on the whole page each time.
 */
async function shots(item: string, region?: () => Locator): Promise<void> {
  for (const size of SIZES) {
    for (const scheme of THEMES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      const file = path.join(SHOTS, `${item}-${scheme}-${size.width}x${size.height}.png`);
      // (Not caught mid-way through the theme's 120 ms fade.)
      await steadyForAxe(page);
      if (region) {
        await region().scrollIntoViewIfNeeded();
        await region().screenshot({ path: file });
      } else await page.screenshot({ path: file });
      await expectNoSeriousAxe(page, `${item} ${scheme} ${size.width}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1360, height: 860 });
}

async function setFaults(plan: object): Promise<void> {
  const r = await fetch(`${serving.embedded}/sandbox/admin/faults`, {
    method: 'PUT',
    headers: { authorization: 'Basic sandbox-key', 'content-type': 'application/json' },
    body: JSON.stringify(plan),
  });
  expect(r.status).toBe(200);
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  mkdirSync(SHOTS, { recursive: true });
  dir = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-walk43-'));
  state = path.join(dir, 'state');
  watch = path.join(dir, 'watch');
  out = path.join(dir, 'out');
  dji = path.join(dir, 'dji');
  for (const d of [state, watch, out, dji]) mkdirSync(d);
  await serveOnState();
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  page = await context.newPage();
  await open(serving.url);
  const output = { formats: ['json', 'srt', 'txt'], pattern: '{name}', languageSuffix: null, txtTimestamps: false };
  const asked = { templateId: DIARIZATION, params: { speakersNumber: 2 }, output };
  // The card folder with an output folder (S3-5), and a drone folder with results beside (S3-10).
  await bridge('folders:add', { folder: { path: watch, outputDir: out, ...asked } });
  await bridge('folders:add', { folder: { path: dji, ...asked } });
  copyIn(dji, DJI_TELEMETRY, TELEMETRY);
  copyIn(path.join(watch, SONY.dir), SONY.clip, toneWav(30, 410));
  copyIn(dji, DJI_CLIP, toneWav(6, 330));
  await expect
    .poll(async () => (await jobs()).map((j) => `${j.fileName} ${j.state}`).sort(), { timeout: 180_000 })
    .toEqual([`${DJI_CLIP} completed`, `${SONY.clip} completed`].sort());
});

test.afterAll(async () => {
  await page?.context().close();
  await stop(serving?.child);
  pointAt(undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('S3-5: the Queue row names the clip’s own folder on the card, not the output folder', async () => {
  await go(page, 'Queue');
  const row = jobRow(page, SONY.clip);
  const folder = row.locator('.folder');
  await expect(folder).toHaveAttribute('title', new RegExp(`${path.join(watch, SONY.dir)}$`));
  await expect(folder).toContainText('CLIP');
  await expect(row).not.toContainText(out);
  await shots('S3-5-queue-row-clip-folder', () => row);
});

test('S3-10: a DJI clip’s captions are named so players load them; the telemetry .SRT is left as it was', async () => {
  const names = readdirSync(dji).sort();
  const captions = names.find((n) => /^DJI_20261207_0001_D\.[a-z]{2}(-[A-Za-z]+)?\.srt$/.test(n));
  expect(captions, `captions beside the clip in ${names.join(', ')}`).toBeDefined();
  expect(names).not.toContain('DJI_20261207_0001_D.wav.srt');
  expect(readFileSync(path.join(dji, DJI_TELEMETRY), 'utf8')).toBe(TELEMETRY);
  await go(page, 'Queue');
  await jobRow(page, DJI_CLIP).dblclick();
  const detail = page.getByTestId('job-detail');
  await expect(detail).toContainText(captions!);
  // The detail's Results: the captions under the name a player looks for beside the clip.
  await shots('S3-10-dji-captions-players-load', () =>
    detail.locator('section', { has: page.getByRole('heading', { name: 'Results', exact: true }) }),
  );
});

test('S3-15: a transcript hit in History has its words highlighted', async () => {
  const sony = (await jobs()).find((j) => j.fileName === SONY.clip)!;
  const view = await bridge<TranscriptView>('transcript:open', { jobId: sony.id });
  // A word well into the clip, of letters only, so the line shown has to be the match's.
  const word = view.words.map((w) => w.text.replace(/[^\p{L}]/gu, '')).find((w, i) => i > 20 && w.length >= 6);
  expect(word, 'a long word in the transcript').toBeDefined();
  await go(page, 'History');
  await page.getByRole('searchbox', { name: /^Search file names/ }).fill(word!);
  const row = page.locator(`[data-testid=history-row][data-name="${SONY.clip}"]`);
  await expect(row.getByTestId('history-match').locator('mark').first()).toHaveText(new RegExp(word!, 'i'));
  await shots('S3-15-history-snippet-highlight', () => row);
});

test('S3-12: the sandbox’s Usage counts the same streams after Sluice restarts', async () => {
  await go(page, 'Usage');
  const streams = page.getByTestId('stat-Streams');
  await expect(streams).toContainText('2');
  const before = (await streams.textContent())!.replace(/\s+/g, ' ').trim();
  const credits = (await page.getByTestId('stat-Credits').textContent())!.replace(/\s+/g, ' ').trim();
  await stop(serving.child);
  await serveOnState();
  await open(serving.url);
  await go(page, 'Usage');
  await expect(page.getByTestId('stat-Streams')).toHaveText(before);
  await expect(page.getByTestId('stat-Credits')).toHaveText(credits);
  await shots('S3-12-usage-after-restart');
});

// The row's speed from 10 s on, as the editor reads it, against the line's rate. The rule itself (every
// reading from 10 s within 15 %, the bytes shown not ahead of the line, time left counting down) is
// held over real HTTP by test/runtime/upload-speed.test.ts; here the row says it in the browser, and
// its screens are taken while the file is still on the line.
test('S2-7: on a throttled line the Queue row’s speed is within 15 % of the line’s from 10 s on', async () => {
  test.setTimeout(120_000);
  // The bench's line (scripts/bench/line-speed.js): 300 KB/s, read from the connection itself.
  const rate = 300_000;
  await setFaults({ uploadThrottle: { bytesPerSecond: rate, buffered: false } });
  try {
    // 625 s of 16 kHz mono: 20 MB, some 67 s of the line: more than the loopback's socket buffers
    // take at once, and still on the line while the screens are taken after the reading.
    const name = 'slow-line-43.wav';
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(toneWav(625, 600))], { type: 'audio/wav' }), name);
    await go(page, 'Queue');
    await bridge('queue:upload', form);
    const row = jobRow(page, name);
    await expect(row).toHaveAttribute('data-state', 'uploading', { timeout: 30_000 });
    const began = Date.now();
    const bytes = row.getByTestId('upload-bytes');
    // The shown speed, read as the editor reads it, from 10 s into the upload: four measured
    // readings, as the row is sent again each second. The socket's bursts come some 5 s apart
    // (test/runtime/upload-speed.test.ts), so the second after its first fill, which the speed is
    // first read from, can land a little past 10 s: "—" (not measured yet) is let pass until then.
    const readings: Array<{ at: number; text: string; speed?: number }> = [];
    await expect
      .poll(
        async () => {
          if (Date.now() - began >= 10_000) {
            const text = await bytes.innerText({ timeout: 1000 }).catch(() => '');
            const m = /· ([\d.]+) (B|KB|MB)\/s/.exec(text);
            const speed = m ? Number(m[1]) * { B: 1, KB: 1e3, MB: 1e6 }[m[2] as 'B' | 'KB' | 'MB'] : undefined;
            if (text !== readings[readings.length - 1]?.text)
              readings.push({ at: Date.now() - began, text, ...(speed !== undefined ? { speed } : {}) });
          }
          return readings.filter((r) => r.speed !== undefined).length;
        },
        { timeout: 30_000, intervals: [250] },
      )
      .toBeGreaterThanOrEqual(4);
    const said = readings.map((r) => `${(r.at / 1000).toFixed(1)} s: ${r.text}`).join(' | ');
    console.log(`S2-7 readings from 10 s: ${said}`);
    const firstMeasured = readings.findIndex((r) => r.speed !== undefined);
    // Measured by 12 s on a quiet machine; on a loaded one (a second whole test run beside this)
    // the socket's first fill and the burst after it come a few seconds later: 13.1 s seen.
    expect(readings[firstMeasured]!.at, said).toBeLessThan(15_000);
    for (const r of readings.slice(firstMeasured)) {
      expect(r.speed, said).toBeDefined();
      expect(Math.abs(r.speed! / rate - 1), said).toBeLessThanOrEqual(0.15);
    }
    // The bytes shown are the line's, not the 4 MB the socket's buffers took at once: within a
    // fifth of what 300 KB/s carried since the row turned to uploading (and the second before).
    for (const r of readings) {
      const m = /^([\d.]+) (KB|MB) of/.exec(r.text);
      expect(m, r.text).not.toBeNull();
      const shown = Number(m![1]) * (m![2] === 'MB' ? 1e6 : 1e3);
      expect(shown, said).toBeLessThanOrEqual(((rate * (r.at + 1000)) / 1000) * 1.2);
    }
    const text = await bytes.innerText();
    console.log(
      `S2-7: ${((Date.now() - began) / 1000).toFixed(1)} s into the upload the row reads "${text}" (line ${rate / 1000} KB/s)`,
    );
    // The Queue while the file is still on the line (20 MB at 300 KB/s): the four screens first,
    // quickly, then axe on each, still uploading: with reduced motion, as the upload bar's endless
    // slide (which steadyForAxe would wait out with the upload) is then still.
    const looks = SIZES.flatMap((size) => THEMES.map((scheme) => ({ size, scheme })));
    for (const { size, scheme } of looks) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      // The theme's fade over (steadyForAxe would wait on the progress bar's endless animation).
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a instanceof CSSTransition)
            .map((a) => a.finished.catch(() => undefined)),
        ),
      );
      await expect(row).toHaveAttribute('data-state', 'uploading');
      const file = `S2-7-upload-speed-throttled-${scheme}-${size.width}x${size.height}.png`;
      await page.screenshot({ path: path.join(SHOTS, file) });
    }
    for (const { size, scheme } of looks) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await expectNoSeriousAxe(page, `S2-7 ${scheme} ${size.width}`);
    }
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
    await page.setViewportSize({ width: 1360, height: 860 });
  } finally {
    await setFaults({});
  }
});
