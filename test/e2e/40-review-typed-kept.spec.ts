/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Everything typed in the review is kept on leaving, as word corrections are: a marker's name, a
// chapter's title and a pull quote's words, typed without Enter or Save, then left by each way an
// editor leaves: another screen, another clip, reloading the window, closing it, and Sluice itself
// stopping and starting again. Each is saved, in the review and in what main holds.
// A `sluice serve` of the spec's own on a fixed port: it is stopped and started again here, and the
// page keeps what it typed in that address's storage.
import { expect, test, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TranscriptView } from '../../preload/contract.js';
import { bridge, expectNoSeriousAxe, go, openApp, pointAt, shot, toneWav } from './helpers.js';
import { start } from './server.js';

const EPISODE = 'kept-episode.wav';
const OTHER = 'kept-other.wav';
/** "Transcription + speakers", as a podcast is processed. */
const DIARIZATION_TEMPLATE = '669fee048452492b62cfad39';

let server: { child: ChildProcess; state: string; port: number } | undefined;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** Starts `sluice serve` on the spec's state folder and port; the bridge helper then talks to it. */
async function serve(state: string, port: number): Promise<string> {
  const s = start(['bin/sluice.js', 'serve', '--state-dir', state, '--port', String(port)], /running at (\S+)/, {
    SLUICE_API_KEY: 'wrong-key-0000',
    SLUICE_CLIENT_ID: '',
  });
  const url = await s.url;
  server = { child: s.child, state, port };
  pointAt({ url });
  return url;
}

async function stopServer(): Promise<void> {
  if (!server) return;
  const { child } = server;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

test.beforeAll(async () => {
  test.setTimeout(60_000);
  await serve(mkdtempSync(path.join(tmpdir(), 'sluice-e2e-kept-')), await freePort());
});
test.afterAll(async () => {
  await stopServer();
  pointAt(undefined);
  if (server) rmSync(server.state, { recursive: true, force: true });
});

async function upload(name: string, seconds: number): Promise<string> {
  const form = new FormData();
  form.set('templateId', DIARIZATION_TEMPLATE);
  form.set('params', JSON.stringify({ speakersNumber: 2 }));
  form.set('file', new Blob([new Uint8Array(toneWav(seconds))], { type: 'audio/wav' }), name);
  const added = await bridge<Array<{ jobId?: string }>>('queue:upload', form);
  const jobId = added[0]?.jobId ?? '';
  expect(jobId).not.toBe('');
  return jobId;
}

const open = (jobId: string): Promise<TranscriptView> => bridge<TranscriptView>('transcript:open', { jobId });

type Field = 'marker' | 'chapter' | 'quote';
const FIELDS: readonly Field[] = ['marker', 'chapter', 'quote'];

/** What main holds for the field now. */
async function saved(jobId: string, field: Field): Promise<string> {
  const v = await open(jobId);
  if (field === 'marker') return v.markers?.[0]?.name ?? '';
  if (field === 'chapter') return v.outline?.chapters[1]?.title ?? '';
  return v.outline?.quotes[0]?.text ?? '';
}

/** Opens the field in the review and types `text` in it: no Enter, no Save. */
async function typeIn(page: Page, field: Field, text: string): Promise<void> {
  const review = page.getByTestId('review');
  if (field === 'marker') {
    const panel = review.getByTestId('markers-panel');
    await panel
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    await panel.getByLabel('Name').fill(text);
    await panel.getByLabel('Note').fill(`${text}: note`);
    // Back in the name, the field the editor was typing in when they left.
    await panel.getByLabel('Name').focus();
  } else {
    const panel = review.getByTestId('chapters-panel');
    const item = panel.getByTestId(field).nth(field === 'chapter' ? 1 : 0);
    await item.getByRole('button', { name: field === 'chapter' ? /^Rename / : /^Edit quote at / }).click();
    const input = panel.getByRole('textbox', { name: field === 'chapter' ? 'Title' : 'Quote', exact: true });
    await expect(input).toBeFocused();
    await input.fill(text);
  }
}

async function openReview(page: Page, name: string): Promise<void> {
  const review = page.getByTestId('review');
  if ((await review.count()) > 0) {
    await review.getByRole('button', { name: 'Close the transcript' }).click();
    await expect(review).toHaveCount(0);
  }
  await go(page, 'Queue');
  const row = page.locator(`[data-testid=job-row][data-name="${name}"]`);
  await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 120_000 });
  await row.dblclick();
  await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();
  await expect(review.getByTestId('transcript-paragraph').first()).toBeVisible();
  await expect(review.getByRole('heading', { level: 1 })).toContainText(name);
  if (name === EPISODE) await expect(review.getByTestId('markers-panel').getByTestId('marker')).toHaveCount(1);
}

/** The review shows what was kept (the marker's name, the chapter's title, the quote's words). */
async function shown(page: Page, field: Field, text: string): Promise<void> {
  const review = page.getByTestId('review');
  const where =
    field === 'marker'
      ? review.getByTestId('markers-panel').getByTestId('marker').first()
      : review
          .getByTestId('chapters-panel')
          .getByTestId(field)
          .nth(field === 'chapter' ? 1 : 0);
  await expect(where).toContainText(text);
}

test('a marker name, a chapter title and a quote typed in the review are kept however the editor leaves', async ({
  context,
}) => {
  test.setTimeout(420_000);
  await bridge('settings:update', {
    patch: { defaults: { recipe: 'podcast', output: { formats: ['json', 'srt', 'chapters', 'shownotes', 'edl'] } } },
  });
  // Long enough for three chapters or more (see 28-chapters.spec.ts), and a second clip.
  const jobId = await upload(EPISODE, 200);
  await upload(OTHER, 12);
  await expect
    .poll(async () => (await bridge<{ jobs: Array<{ state: string }> }>('queue:snapshot')).jobs.map((j) => j.state), {
      timeout: 150_000,
    })
    .toEqual(['completed', 'completed']);
  await bridge('transcript:edit', {
    jobId,
    revision: (await open(jobId)).revision,
    edit: { kind: 'addMarker', atMs: 4000, name: '', note: '', colour: 'Blue' },
  });
  const before = await open(jobId);
  expect(before.outline?.chapters.length).toBeGreaterThanOrEqual(2);
  expect(before.outline?.quotes.length).toBeGreaterThanOrEqual(1);

  let page = await context.newPage();
  // Each window's console errors and page errors (openApp collects them as they come).
  const problems: string[][] = [];
  const watch = async (p: Page): Promise<void> => {
    problems.push(await openApp(p));
  };
  await watch(page);
  await openReview(page, EPISODE);
  await expectNoSeriousAxe(page, 'review of a recipe job with a marker');

  // Each way of leaving, and the way back to the transcript. Where the page stays or unloads, the
  // change is saved as it goes (checked before coming back); where the page or Sluice may go first
  // (a window closed, Sluice stopped with the field open), it is saved at the latest the next time
  // the transcript opens.
  const routes: Array<{
    name: string;
    savedOnLeaving: boolean;
    leave: (p: Page) => Promise<Page>;
    back: (p: Page) => Promise<void>;
  }> = [
    {
      // A click on another screen: focus leaves the field for the button.
      name: 'another screen',
      savedOnLeaving: true,
      leave: async (p) => {
        await p.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'History' }).click();
        await expect(p.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
        return p;
      },
      back: async (p) => {
        await p.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Queue' }).click();
        await expect(p.getByTestId('review').getByRole('heading', { level: 1 })).toContainText(EPISODE);
      },
    },
    {
      // Ctrl+1 closes the review with focus still in the field, then another clip is opened.
      name: 'another clip',
      savedOnLeaving: true,
      leave: async (p) => {
        await p.keyboard.press('Control+1');
        await expect(p.getByTestId('review')).toHaveCount(0);
        await openReview(p, OTHER);
        return p;
      },
      back: (p) => openReview(p, EPISODE),
    },
    {
      name: 'reloading the window',
      savedOnLeaving: true,
      leave: async (p) => {
        await p.reload();
        await expect(p.getByRole('navigation', { name: 'Screens' })).toBeVisible();
        return p;
      },
      back: (p) => openReview(p, EPISODE),
    },
    {
      // Closed as a crash would: no unload handler runs. The next window opens the transcript.
      name: 'closing the window',
      savedOnLeaving: false,
      leave: async (p) => {
        await p.close();
        const next = await context.newPage();
        await watch(next);
        return next;
      },
      back: (p) => openReview(p, EPISODE),
    },
    {
      // Sluice stops with the field open and starts again: the state folder keeps its token, so the
      // tab carries on by itself, and the printed link opened in it again changes nothing.
      name: 'Sluice stopping and starting again',
      savedOnLeaving: false,
      leave: async (p) => {
        await stopServer();
        const lost = p.getByText('Lost contact with Sluice. Reconnecting…');
        await expect(lost).toBeVisible();
        const url = await serve(server!.state, server!.port);
        await expect(lost).toBeHidden({ timeout: 30_000 });
        await p.goto(url);
        await expect(p.getByRole('navigation', { name: 'Screens' })).toBeVisible();
        return p;
      },
      back: (p) => openReview(p, EPISODE),
    },
  ];

  for (const [r, route] of routes.entries()) {
    for (const field of FIELDS) {
      const text = `${field} ${r + 1}: ${route.name}`;
      await typeIn(page, field, text);
      if (r === 0) {
        await shot(page, `review-kept-typing-${field}`);
        await expectNoSeriousAxe(page, `review with the ${field} field open`);
      }
      page = await route.leave(page);
      const kept = () => expect.poll(() => saved(jobId, field), { message: `${field} by ${route.name}` }).toBe(text);
      if (route.savedOnLeaving) await kept();
      await route.back(page);
      await kept();
      await shown(page, field, text);
      if (r === 4 && field === 'marker') await shot(page, 'review-kept-after-restart');
    }
    // Saved once each: no field saved twice or left behind in the page's storage.
    await expect
      .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('sluice-review-drafts'))))
      .toEqual([]);
  }
  const after = await open(jobId);
  expect(after.markers?.[0]?.note).toBe('marker 5: Sluice stopping and starting again: note');
  await expectNoSeriousAxe(page, 'review after every way of leaving');
  // Refused connections while Sluice was stopped are the browser's, not the app's.
  expect(problems.flat().filter((m) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(m))).toEqual([]);
});
