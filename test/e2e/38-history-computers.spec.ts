/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Team mode in History: a shared folder's file processed here and one another computer took over
// name two computers, so History offers a Computer filter and sort; both work by keyboard, and the
// screen passes axe in light and dark at 800 × 600 and 1920 × 1080.
import { expect, test } from '@playwright/test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ClaimStore } from '../../main/adapters/claims/claim-store.js';
import {
  bridge,
  env,
  expectNoSeriousAxe,
  go,
  openApp,
  resumeQueueAfterSpec,
  shot,
  THEMES,
  toneWav,
} from './helpers.js';

resumeQueueAfterSpec();

interface Page {
  entries: Array<{ fileName: string; state: string; processedBy?: string }>;
  computers: string[];
}
const entryOf = async (name: string): Promise<Page['entries'][number] | undefined> =>
  (await bridge<Page>('history:list', { search: name, includeExternal: false })).entries.find(
    (e) => e.fileName === name,
  );

test('History filters and sorts by the computer that processed a shared file, by keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = await openApp(page);
  const share = path.join(env.work, 'shared-history');
  mkdirSync(share, { recursive: true });
  // A short claim timeout: this computer refreshes its claims every 2 s, so it sees a takeover soon.
  const folder = await bridge<{ id: string }>('folders:add', {
    folder: { path: share, shared: true, claimTimeoutS: 6 },
  });
  try {
    writeFileSync(path.join(share, 'here-1.wav'), toneWav(1));
    await expect.poll(async () => (await entryOf('here-1.wav'))?.state, { timeout: 30_000 }).toBe('completed');
    const here = (await entryOf('here-1.wav'))?.processedBy;
    expect(here).toBeTruthy();
    // The queue paused, the next file is claimed and waits: another computer then takes it over, as
    // it would after this computer's heartbeat froze.
    await bridge('queue:pause');
    writeFileSync(path.join(share, 'bay-2.wav'), toneWav(1));
    await expect.poll(async () => (await entryOf('bay-2.wav'))?.state, { timeout: 30_000 }).toBe('queued');
    const claims = path.join(share, '.sluice', 'claims');
    const [claimDir] = readdirSync(claims).filter((d) => d.endsWith('.claim'));
    const owner = JSON.parse(readFileSync(path.join(claims, claimDir!, 'owner.json'), 'utf8')) as { key: string };
    let clock = Date.now();
    const bay2 = new ClaimStore(share, { host: 'EDIT-BAY-2', instance: 'bay-2', timeoutMs: 6000, now: () => clock });
    expect((await bay2.take('bay-2.wav', owner.key, 0)).kind).toBe('held');
    clock += 60_000; // by its clock the lease has not moved for a minute
    expect((await bay2.take('bay-2.wav', owner.key, 0)).kind).toBe('taken');
    await expect.poll(async () => (await entryOf('bay-2.wav'))?.processedBy, { timeout: 30_000 }).toBe('EDIT-BAY-2');
    await bridge('queue:resume');

    await go(page, 'History');
    const computer = page.getByRole('combobox', { name: 'Computer' });
    await expect(computer).toBeVisible();
    await expect(computer.locator('option')).toHaveText(['All computers', ...[here!, 'EDIT-BAY-2'].sort()]);
    // By keyboard: arrows on the focused filter choose EDIT-BAY-2; the list holds its file only.
    await computer.focus();
    for (let i = 0; i < 3 && (await computer.inputValue()) !== 'EDIT-BAY-2'; i++)
      await page.keyboard.press('ArrowDown');
    await expect(computer).toHaveValue('EDIT-BAY-2');
    await expect(page.getByTestId('history-row')).toHaveCount(1);
    await expect(page.getByTestId('history-row').first()).toHaveAttribute('data-name', 'bay-2.wav');
    await expect(page.getByTestId('history-processed-by').first()).toHaveText('on EDIT-BAY-2');
    await page.keyboard.press('Home');
    await expect(computer).toHaveValue('');
    // The sort by keyboard: "Computer" is its last choice; Tab then reaches the direction.
    const sort = page.getByRole('combobox', { name: 'Sort by' });
    await sort.focus();
    await page.keyboard.press('End');
    await expect(sort).toHaveValue('computer');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: /Descending|Ascending/ })).toBeFocused();
    // Descending by computer: the computers' files before the ones of no shared folder.
    // The list is asked again for the new order: read it once it has come back.
    await expect
      .poll(async () =>
        (
          await page
            .getByTestId('history-row')
            .evaluateAll((rows) => rows.slice(0, 2).map((r) => r.getAttribute('data-name')))
        ).sort(),
      )
      .toEqual(['bay-2.wav', 'here-1.wav']);
    await computer.focus();
    for (let i = 0; i < 3 && (await computer.inputValue()) !== 'EDIT-BAY-2'; i++)
      await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('history-row')).toHaveCount(1);
    for (const theme of THEMES) {
      for (const size of [
        { width: 800, height: 600 },
        { width: 1920, height: 1080 },
      ]) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: theme });
        await shot(page, `history-computers-${theme}-${size.width}`);
        await expectNoSeriousAxe(page, `History by computer, ${theme} ${size.width}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect(computer).toHaveValue('');
  } finally {
    await bridge('queue:resume').catch(() => undefined);
    await bridge('folders:remove', { id: folder.id });
  }
  expect(problems).toEqual([]);
});
