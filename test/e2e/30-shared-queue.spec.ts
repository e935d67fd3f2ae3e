/// <reference lib="dom" />
// Team mode on the Queue: files of a shared folder that another computer claimed show as one line
// per computer ("3 files processing on EDIT-BAY-2"), opened to list them; none becomes a job here.
import { expect, test } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ClaimStore } from '../../main/adapters/claims/claim-store.js';
import { axe, bridge, env, go, openApp, shot, steadyForAxe, toneWav } from './helpers.js';

test('files another computer is processing on a shared folder show in the Queue by that computer', async ({ page }) => {
  const problems = await openApp(page);
  const share = path.join(env.work, 'shared-queue');
  mkdirSync(share, { recursive: true });
  // Another computer's live claims, written as it writes them (mkdir, then its owner.json).
  const bay2 = new ClaimStore(share, { host: 'EDIT-BAY-2', instance: 'edit-bay-2-1', timeoutMs: 600_000 });
  const names = ['interview-a.wav', 'interview-b.wav', 'interview-c.wav'];
  for (const name of names) {
    writeFileSync(path.join(share, name), toneWav(1));
    expect((await bay2.take(name, `key-${name}`, 0)).kind).toBe('taken');
  }
  const folder = await bridge<{ id: string }>('folders:add', { folder: { path: share, shared: true } });
  try {
    await go(page, 'Queue');
    const elsewhere = page.getByRole('list', { name: 'Files other computers are processing' });
    await expect(elsewhere).toContainText('3 files processing on EDIT-BAY-2', { timeout: 30_000 });
    await expect(elsewhere).toContainText(share);
    const line = elsewhere.locator('summary');
    await line.focus();
    await page.keyboard.press('Enter');
    for (const name of names) await expect(elsewhere.getByText(name, { exact: true })).toBeVisible();
    // Held elsewhere: not this computer's job.
    await expect(page.getByTestId('job-row').filter({ hasText: 'interview-a.wav' })).toHaveCount(0);
    for (const scheme of ['light', 'dark'] as const) {
      for (const size of [
        { width: 800, height: 600 },
        { width: 1920, height: 1080 },
      ]) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await shot(page, `shared-queue-${scheme}-${size.width}`);
        await steadyForAxe(page);
        const found = await axe(page).include('[data-testid=elsewhere]').analyze();
        expect(found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  } finally {
    await bridge('folders:remove', { id: folder.id });
  }
  expect(problems).toEqual([]);
});
