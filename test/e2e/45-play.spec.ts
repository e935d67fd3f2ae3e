/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// The string-out played on the Selects screen (issue 45), by keyboard alone: Space plays the bite
// that has focus from its in and stops at its out; Play all plays every bite back to back across
// two clips, the playing row marked, holding for a title card between two bites (its text shown over
// the player, the media paused), and stops at the last out; Esc stops a run, in a bite or a hold.
// Read from the media element's own events (where each seek landed, where it paused), the rows'
// marks and the title shown as they changed, never from elapsed time. axe with no serious finding,
// light and dark, 800×600 and 1920×1080, while a title card is held over the player.
import { expect, test, type Page } from '@playwright/test';
import type { SelectListView } from '../../preload/contract.js';
import { bridge, expectNoSeriousAxe, keepSettingsForSpec, openApp, processFiles, shot } from './helpers.js';

keepSettingsForSpec(['defaults']);

const LIST = 'Play cut';

type Logged = { e: string; src?: string; t?: number; id?: string; at?: number };

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
        if (c.type === 'attributes' && el.getAttribute('aria-current') === 'true')
          w.playLog.push({ e: 'current', id: el.dataset.selectId!, at: performance.now() });
        c.addedNodes.forEach((n) => {
          const title = n instanceof HTMLElement ? n.querySelector('[data-testid=string-out-title]') : null;
          if (title) w.playLog.push({ e: 'title', id: title.textContent ?? '' });
        });
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-current'] });
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
  // A title card between the first two bites: held long while axe looks at it, then shortened.
  const titled = await bridge<SelectListView>('selects:edit', {
    list: LIST,
    edit: { kind: 'addTitle', text: 'Part two', ms: 60_000, after: a.id },
  });
  const title = titled.spacers![0]!;
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
  await expect(screen.getByTestId('selects-total')).toContainText('3 bites + 1 gap/title');
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

  // Shift+Space on the title card: the run holds there first, the row marked, the card's text over
  // the paused player, its time counting down; Esc stops it.
  const held = screen.getByTestId('string-out-hold');
  await press(page, `[data-select-id="${title.id}"] .label-btn`, 'Shift+Space');
  await expect(status).toHaveText('Playing 2 bites with 1 gap or title card held.');
  await expect(marked).toHaveAttribute('data-select-id', title.id);
  await expect(screen.getByTestId('string-out-title')).toHaveText('Part two');
  await expect(screen.getByTestId('string-out-playing')).toHaveText('Holding for the title card “Part two” (60 s)');
  await expect(held).toContainText(/Title card · \d+\.\d s/);
  expect(await player.evaluate((m: HTMLMediaElement) => m.paused)).toBe(true);
  await expect(screen.getByTestId('string-out-player').locator('[inert]')).toHaveCount(1);
  for (const size of [
    { width: 800, height: 600 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      // The screen alone (its player under the card, the marked row): the rest of the window is 45-string-out's.
      await expectNoSeriousAxe(
        page,
        `string-out holding a title card ${size.width}×${size.height} ${theme}`,
        '[data-testid=selects-screen]',
      );
      await shot(page, `selects-title-card-${size.width}-${theme}`);
    }
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  await expect(page.locator(`[data-select-id="${title.id}"] .label-btn`)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(held).toHaveCount(0);
  await expect(marked).toHaveCount(0);
  await expect(status).toHaveText('Stopped.');
  await takeLog(page);
  // Shortened to 0.4 s for the whole run below.
  await bridge('selects:edit', { list: LIST, edit: { kind: 'respace', id: title.id, ms: 400 } });
  await expect(page.locator(`[data-select-id="${title.id}"] .length input`)).toHaveValue('0.4');

  // Play all from the header (Enter on the button): every bite in list order, first clip, second,
  // first again, each from its in, the playing row marked in turn; stopped at the last one's out.
  await press(page, '[data-testid=play-all]', 'Enter');
  await expect(status).toContainText('Playing 3 bites with 1 gap or title card held');
  await expect(status).toHaveText('Stopped.', { timeout: 30_000 });
  await expect(screen.getByTestId('string-out-playing')).toHaveText(
    `Stopped in bite 3 of 3: ${c.label} · play first clip.wav`,
  );
  log = await takeLog(page);
  const marks = log.filter((l) => l.e === 'current');
  expect(marks.map((l) => l.id)).toEqual([a.id, title.id, b.id, c.id]);
  expect(log.filter((l) => l.e === 'title').map((l) => l.id)).toEqual(['Part two']);
  // Held at least its length (a timer never ends early; how much longer is the machine's).
  expect(marks[2]!.at! - marks[1]!.at!).toBeGreaterThanOrEqual(400 - 20);
  // Paused for the hold, between the first bite's out and the second's in.
  const first = log.findIndex((l) => l.e === 'current' && l.id === title.id);
  const second = log.findIndex((l) => l.e === 'current' && l.id === b.id);
  expect(log.slice(first, second).map((l) => l.e)).toContain('pause');
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
