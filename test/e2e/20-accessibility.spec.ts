import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  axe,
  go,
  LONG_NAMES,
  openApp,
  resumeQueueAfterSpec,
  revealQueueRow,
  seedScreens,
  shot,
  SIZES,
  steadyForAxe,
  THEMES,
} from './helpers.js';

resumeQueueAfterSpec();
// The four theme × size passes are independent (each opens the app afresh on its worker's own
// server, which beforeAll seeds if it has not been): they spread over the workers instead of
// holding one for a minute at the end of the run.
test.describe.configure({ mode: 'parallel' });

// axe-core on every screen and open dialog, light and dark, wide and small, with jobs listed and a
// detail panel open. Serious and critical findings fail the test; the counts are kept as an artefact.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface View {
  name: string;
  open: (page: Page) => Promise<void>;
}

const VIEWS: View[] = [
  {
    name: 'queue',
    open: async (page) => {
      await go(page, 'Queue');
      const row = `[data-testid=job-row][data-name="${LONG_NAMES[1]}"]`;
      await revealQueueRow(page, row);
      await page.locator(row).click();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('job-detail')).toBeVisible();
    },
  },
  {
    name: 'queue-row-menu',
    open: async (page) => {
      await go(page, 'Queue');
      const held = page.locator('[data-testid=job-row][data-name="seed-held-2.wav"]');
      await held.getByRole('button', { name: /^More actions/ }).click({ timeout: 5000 });
      await expect(page.getByRole('menu')).toBeVisible();
    },
  },
  {
    name: 'history',
    open: async (page) => {
      await go(page, 'History');
      // Found by name, however many files other specs added after it.
      await page.getByRole('searchbox', { name: 'Search file names' }).fill('deputy mayor');
      await page.locator(`[data-testid=history-row][data-name="${LONG_NAMES[0]}"]`).click();
      await expect(page.getByTestId('history-detail')).toBeVisible();
    },
  },
  {
    name: 'usage',
    open: async (page) => {
      await go(page, 'Usage');
      // In credits or in a currency, whichever the settings hold: the report is there.
      await expect(page.getByTestId(/^stat-(Credits|Cost)$/)).toBeVisible();
    },
  },
  {
    name: 'settings',
    open: async (page) => {
      await go(page, 'Settings');
    },
  },
  {
    name: 'settings-folder-editor',
    open: async (page) => {
      await go(page, 'Settings');
      await page.getByRole('button', { name: 'Add folder' }).click();
      await expect(page.getByTestId('folder-editor')).toBeVisible();
      // The output folder's field and the card rules are part of the form axe checks.
      await page.getByRole('radio', { name: 'In an output folder' }).check();
      await expect(page.getByLabel('Output folder', { exact: true })).toBeVisible();
      await expect(page.getByTestId('card-rules')).toBeVisible();
    },
  },
  {
    name: 'shortcuts',
    open: async (page) => {
      await go(page, 'Queue');
      await page.keyboard.press('?');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    },
  },
];

async function close(page: Page): Promise<void> {
  for (let i = 0; i < 2; i++) await page.keyboard.press('Escape');
  // An editor the view changed asks before it closes (Escape there means Stay): its changes go.
  const cancel = page.getByTestId('folder-editor').getByRole('button', { name: 'Cancel' });
  if (await cancel.isVisible()) await cancel.click({ timeout: 5000 });
  const discard = page.getByRole('dialog', { name: /^Save your changes/ }).getByRole('button', { name: 'Discard' });
  if (await discard.isVisible()) await discard.click({ timeout: 5000 });
}

type Finding = { id: string; impact: string; nodes: number; example: string; targets: string[] };

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  await seedScreens(page);
  await page.close();
});

function keep(name: string, data: unknown): void {
  const dir = path.join(root, 'test-results/axe');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(data, null, 2));
}

for (const theme of THEMES) {
  for (const size of SIZES) {
    test(`axe finds no serious or critical violation (${theme}, ${size.width}×${size.height})`, async ({ page }) => {
      test.setTimeout(240_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      const problems = await openApp(page);
      const failures: string[] = [];
      const counts: Record<string, number> = {};
      const details: Record<string, Finding[]> = {};
      for (const view of VIEWS) {
        const key = `${view.name} ${theme} ${size.name}`;
        try {
          await view.open(page);
        } catch (e) {
          failures.push(`${key}: could not be opened (${(e as Error).message.split('\n')[0]})`);
          await close(page);
          continue;
        }
        await shot(page, `a11y-${view.name}-${theme}-${size.name}`);
        await steadyForAxe(page);
        const result = await axe(page).analyze();
        const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        const findings = bad.map((v) => ({
          id: v.id,
          impact: v.impact ?? '',
          nodes: v.nodes.length,
          example: `${v.nodes[0]?.target.join(' ')} — ${v.nodes[0]?.failureSummary?.split('\n').slice(0, 2).join(' ')}`,
          targets: v.nodes.map((n) => `${n.target.join(' ')} :: ${n.any[0]?.message ?? ''}`),
        }));
        counts[key] = findings.reduce((n, f) => n + f.nodes, 0);
        details[key] = findings;
        for (const f of findings) failures.push(`${key}: ${f.id} (${f.impact}, ${f.nodes} nodes) e.g. ${f.example}`);
        await close(page);
      }
      keep(`${theme}-${size.name}`, { counts, details });
      expect(failures, failures.join('\n')).toEqual([]);
      expect(problems).toEqual([]);
    });
  }
}
