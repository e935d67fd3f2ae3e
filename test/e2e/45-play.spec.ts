/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// The string-out played on the Selects screen (issue 45), by keyboard alone: Space plays the bite
// that has focus from its in and stops at its out; Play all plays every bite back to back across
// two clips, the playing row marked, and stops at the last out; Esc stops a run. Read from the media
// element's own events (where each seek landed, where it paused) and the rows' marks as they
// changed, never from elapsed time. axe with no serious finding, light and dark, 800×600 and
// 1920×1080, while a bite is marked as playing.
import { expect, test, type Page } from '@playwright/test';
import type { SelectListView } from '../../preload/contract.js';
import { bridge, expectNoSeriousAxe, keepSettingsForSpec, openApp, processFiles, shot } from './helpers.js';

keepSettingsForSpec(['defaults']);

const LIST = 'Play cut';

type Logged = { e: string; src?: string; t?: number; id?: string };

/** Records, in the page, every media event that tells where playback went, and each row marked as playing. */
async function recordPlayback(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { playLog: Logged[]; holdNextPlay: boolean };
    w.playLog = [];
    w.holdNextPlay = false;
    for (const e of ['seeked', 'play', 'pause', 'ended', 'playing']) {
      document.addEventListener(
        e,
        (ev) => {
          const m = ev.target as HTMLMediaElement;
          w.playLog.push({ e, src: m.currentSrc, t: m.currentTime });
          // Held at its first frame (the run stays on, paused): a marked row to look at, however fast the machine.
          if (e === 'playing' && w.holdNextPlay) {
            w.holdNextPlay = false;
            m.pause();
          }
        },
        true,
      );
    }
    new MutationObserver((changes) => {
      for (const c of changes) {
        const el = c.target as HTMLElement;
        if (el.getAttribute('aria-current') === 'true') w.playLog.push({ e: 'current', id: el.dataset.selectId! });
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['aria-current'] });
  });
}

const takeLog = (page: Page): Promise<Logged[]> =>
  page.evaluate(() => {
    const w = window as unknown as { playLog: Logged[] };
    return w.playLog.splice(0);
  });

async function press(page: Page, selector: string, key: string): Promise<void> {
  await page.locator(selector).focus();
  await page.keyboard.press(key);
}

test('bites played one at a time and back to back across clips, by keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  const jobs = await processFiles([
    { name: 'play first clip.wav', seconds: 6 },
    { name: 'play second clip.wav', seconds: 4 },
  ]);
  const one = jobs.find((j) => j.fileName === 'play first clip.wav')!;
  const two = jobs.find((j) => j.fileName === 'play second clip.wav')!;
  expect([one.state, two.state]).toEqual(['completed', 'completed']);
  // Across clips and back: the first clip's start, the second's, then the first clip further on.
  for (const [jobId, from, to] of [
    [one.id, 0, 2],
    [two.id, 1, 3],
    [one.id, 5, 7],
  ] as const) {
    await bridge('selects:add', { list: LIST, jobId, from, to });
  }
  const list = await bridge<SelectListView>('selects:open', { list: LIST });
  const [a, b, c] = list.selects as [
    SelectListView['selects'][number],
    SelectListView['selects'][number],
    SelectListView['selects'][number],
  ];
  for (const s of [a, b, c]) expect(s.toMs - s.fromMs, s.label).toBeGreaterThan(200);
  await page.addInitScript((name) => localStorage.setItem('sluice-selects-list', name), LIST);
  await recordPlayback(page);
  await page.setViewportSize({ width: 1920, height: 1080 });
  const problems = await openApp(page);
  const srcOf = (jobId: string): string => {
    const m = list.media?.[jobId];
    if (!m || m.kind === 'missing') throw new Error(`no media for ${jobId}`);
    return new URL(m.url, page.url()).href;
  };

  await page.keyboard.press('Control+5');
  const screen = page.getByTestId('selects-screen');
  await expect(screen.getByTestId('selects-total')).toContainText('3 bites');
  const status = screen.getByRole('status');
  const marked = screen.locator('li[aria-current="true"]');

  // Shift+Space on the first bite: the run starts there, marked, held at its first frame.
  await page.evaluate(() => ((window as unknown as { holdNextPlay: boolean }).holdNextPlay = true));
  await press(page, `[data-select-id="${a.id}"] .label-btn`, 'Shift+Space');
  await expect(marked).toHaveAttribute('data-select-id', a.id);
  const player = screen.getByTestId('string-out-player').locator('audio');
  /** Where the player is now. */
  const where = (): Promise<{ paused: boolean; src: string; ms: number }> =>
    player.evaluate((m: HTMLMediaElement) => ({ paused: m.paused, src: m.currentSrc, ms: m.currentTime * 1000 }));
  await expect.poll(() => player.evaluate((m: HTMLMediaElement) => m.paused && m.readyState >= 1)).toBe(true);
  await expect(screen.getByTestId('play-all')).toHaveText('Stop');
  await expect(screen.getByTestId('string-out-playing')).toHaveText(
    `Playing bite 1 of 3: ${a.label} · play first clip.wav`,
  );
  for (const size of [
    { width: 800, height: 600 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      // The screen alone (its player and marked row): the rest of the window is 45-string-out's.
      await expectNoSeriousAxe(
        page,
        `string-out playing ${size.width}×${size.height} ${theme}`,
        '[data-testid=selects-screen]',
      );
      await shot(page, `selects-playing-${size.width}-${theme}`);
    }
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  // Esc stops the run: no row marked, the button plays again.
  await expect(page.locator(`[data-select-id="${a.id}"] .label-btn`)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(marked).toHaveCount(0);
  await expect(status).toHaveText('Stopped.');
  await expect(screen.getByTestId('play-all')).toHaveText('Play all');
  await takeLog(page);

  // Space on the second bite: its clip loaded, played from its in, stopped at its out.
  await press(page, `[data-select-id="${b.id}"] .label-btn`, 'Space');
  await expect(status).toHaveText('Stopped.', { timeout: 20_000 });
  let log = await takeLog(page);
  expect(log.filter((l) => l.e === 'current').map((l) => l.id)).toEqual([b.id]);
  let seeks = log.filter((l) => l.e === 'seeked');
  expect(seeks.map((l) => l.src)).toEqual([srcOf(two.id)]);
  expect(seeks[0]!.t! * 1000).toBeCloseTo(b.fromMs, -2);
  let stopped = await where();
  expect(stopped).toMatchObject({ paused: true, src: srcOf(two.id) });
  expect(stopped.ms).toBeGreaterThanOrEqual(b.toMs);
  expect(stopped.ms).toBeLessThan(b.toMs + 500);

  // Play all from the header (Enter on the button): every bite in list order, first clip, second,
  // first again, each from its in, the playing row marked in turn; stopped at the last one's out.
  await press(page, '[data-testid=play-all]', 'Enter');
  await expect(status).toContainText('Playing 3 bites');
  await expect(status).toHaveText('Stopped.', { timeout: 30_000 });
  await expect(screen.getByTestId('string-out-playing')).toHaveText(
    `Stopped in bite 3 of 3: ${c.label} · play first clip.wav`,
  );
  log = await takeLog(page);
  expect(log.filter((l) => l.e === 'current').map((l) => l.id)).toEqual([a.id, b.id, c.id]);
  seeks = log.filter((l) => l.e === 'seeked');
  expect(seeks.map((l) => l.src)).toEqual([srcOf(one.id), srcOf(two.id), srcOf(one.id)]);
  seeks.forEach((l, i) => expect(l.t! * 1000, `bite ${i + 1}'s in`).toBeCloseTo([a, b, c][i]!.fromMs, -2));
  stopped = await where();
  expect(stopped).toMatchObject({ paused: true, src: srcOf(one.id) });
  expect(stopped.ms).toBeGreaterThanOrEqual(c.toMs);
  expect(stopped.ms).toBeLessThan(c.toMs + 500);
  await expect(marked).toHaveCount(0);
  expect(problems).toEqual([]);
});
