/// <reference lib="dom" />
// History's Re-run of a reviewed clip from a watch folder with an output folder: the confirmation
// names what happens to the review work before anything is billed ("2 corrections, 1 speaker name
// and 1 marker: carried over"), the new results are written in the output folder (nothing inside
// the card), they carry the corrections, and the new run says so in History. The real app, confirmed
// by keyboard.
import { expect, test } from '@playwright/test';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bridge, env, expectNoSeriousAxe, focused, go, openApp, shot, writeWav } from './helpers.js';

interface Entry {
  jobId?: string;
  state: string;
  reviewNote?: string;
  results: Array<{ path: string }>;
}

const DIARIZATION = '669fee048452492b62cfad39';

async function entries(): Promise<Entry[]> {
  const page = await bridge<{ entries: Entry[] }>('history:list', { search: 'C0001', includeExternal: false });
  return page.entries;
}

test('a re-run from History writes in the output folder and carries the review work, as its confirmation says', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const problems = await openApp(page);
  const card = path.join(env.work, 'rerun-card', 'SONY_FX3');
  const clip = path.join(card, 'PRIVATE', 'M4ROOT', 'CLIP');
  const out = path.join(env.work, 'rerun-out');
  mkdirSync(clip, { recursive: true });
  mkdirSync(out, { recursive: true });
  writeWav(clip, 'C0001.wav', 6);
  const folder = await bridge<{ id: string }>('folders:add', {
    folder: { path: card, outputDir: out, templateId: DIARIZATION },
  });
  try {
    await expect.poll(async () => (await entries())[0]?.state, { timeout: 90_000 }).toBe('completed');
    const [first] = await entries();
    const jobId = first!.jobId!;
    const mirrored = path.join(out, 'PRIVATE', 'M4ROOT', 'CLIP');
    expect(first!.results.every((r) => r.path.startsWith(mirrored))).toBe(true);

    // The editor's review: two words fixed, the first speaker named, a marker.
    type View = { revision: number; words: Array<{ text: string }>; speakers: Array<{ id: string }> };
    let view = await bridge<View>('transcript:open', { jobId });
    expect(view.words.length).toBeGreaterThan(4);
    for (const edit of [
      { kind: 'replace', from: 0, to: 1, text: 'Harbourmaster office' },
      { kind: 'replace', from: 4, to: 5, text: 'Quayside' },
      { kind: 'renameSpeaker', speaker: view.speakers[0]!.id, name: 'Hélène Dubois' },
      { kind: 'addMarker', atMs: 1000, name: 'Crane delay', note: 'use in teaser', colour: 'Red' },
    ]) {
      view = await bridge<View>('transcript:edit', { jobId, revision: view.revision, edit });
    }
    const srt = path.join(mirrored, 'C0001.srt');
    await expect.poll(() => readFileSync(srt, 'utf8'), { timeout: 30_000 }).toContain('Hélène Dubois: Harbourmaster');

    await go(page, 'History');
    await page.getByRole('searchbox', { name: 'Search file names' }).fill('C0001');
    const rows = page.getByTestId('history-row');
    await expect(rows).toHaveCount(1);
    await rows.first().click();
    const detail = page.getByTestId('history-detail');
    await detail.getByRole('button', { name: 'Re-run' }).click();
    const confirm = detail.getByRole('group', { name: 'Confirm re-run' });
    await expect(confirm.getByTestId('rerun-review-work')).toHaveText(
      '2 corrections, 1 speaker name and 1 marker: carried over to the new run’s transcript. Anything the new run hears differently is named in its details.',
    );
    await expect(confirm).toContainText(/replaces the \d+ result files of this run where they are/);
    // Focus comes to the confirmation, on the safe choice; the other is one Shift+Tab away.
    expect(await focused(page)).toContain('Keep as is');
    await confirm.scrollIntoViewIfNeeded();
    await shot(page, 'rerun-review-confirm');
    await expectNoSeriousAxe(page, 'rerun confirmation', '[data-testid=history-detail]');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toContain('Re-run and replace');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Queued again. Follow it on the Queue screen.')).toBeVisible();

    // The new run: done, in the output folder, corrected, and saying what it carried.
    await expect
      .poll(async () => (await entries()).find((e) => e.jobId !== jobId)?.state, { timeout: 90_000 })
      .toBe('completed');
    const second = (await entries()).find((e) => e.jobId !== jobId)!;
    expect(second.reviewNote).toBe(
      'Review work of the earlier run carried over: 2 corrections, 1 speaker name and 1 marker.',
    );
    expect(second.results.map((r) => r.path).sort()).toEqual(first!.results.map((r) => r.path).sort());
    expect(readdirSync(clip)).toEqual(['C0001.wav']);
    expect(readFileSync(srt, 'utf8')).toContain('Hélène Dubois: Harbourmaster office');
    const carried = await bridge<{ markers?: Array<{ name: string }> }>('transcript:open', { jobId: second.jobId });
    expect(carried.markers?.map((m) => m.name)).toEqual(['Crane delay']);

    await page.getByRole('button', { name: 'Close details' }).click();
    await page.getByRole('searchbox', { name: 'Search file names' }).fill('');
    await page.getByRole('searchbox', { name: 'Search file names' }).fill('C0001');
    await expect(rows).toHaveCount(2);
    // Newest first: the new run.
    await rows.first().click();
    await expect(detail.getByTestId('review-note')).toContainText('carried over: 2 corrections, 1 speaker name');
    await shot(page, 'rerun-review-carried');
    await expectNoSeriousAxe(page, 'rerun carried', '[data-testid=history-detail]');
  } finally {
    await bridge('folders:remove', { id: folder.id });
  }
  expect(problems).toEqual([]);
});
