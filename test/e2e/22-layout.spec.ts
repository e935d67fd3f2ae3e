/// <reference lib="dom" />
import { expect, test, type Page } from '@playwright/test';
import {
  go,
  jobRow,
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

// Nothing is pushed out of reach: every button lies inside the window and inside whatever clips it,
// at 1360 × 860 and 1024 × 640; long names keep their distinguishing end; labels do not cover values.

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  await seedScreens(page);
  await page.close();
});

/** Buttons (and other controls) cut by the window's edge or by a clipping ancestor, horizontally. */
async function offscreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(
      document.querySelectorAll<HTMLElement>('button, [role=button], a[href], select, input'),
    )) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (el.closest('.sr-only, [aria-hidden=true]')) continue;
      const name = `${el.tagName} "${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40)}"`;
      if (r.left < -0.5 || r.right > window.innerWidth + 0.5) {
        out.push(`${name} at x ${Math.round(r.left)}–${Math.round(r.right)} in a ${window.innerWidth} px window`);
        continue;
      }
      for (let a = el.parentElement; a; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowX === 'visible' && cs.overflow === 'visible') continue;
        const ar = a.getBoundingClientRect();
        // Vertically a scrolling panel may hold it below the fold; sideways nothing may be cut.
        if (r.left < ar.left - 0.5 || r.right > ar.right + 0.5) {
          out.push(`${name} at x ${Math.round(r.left)}–${Math.round(r.right)} cut by ${a.className}`);
          break;
        }
      }
    }
    return out;
  });
}

const SCREENS: Array<{ name: string; open: (page: Page) => Promise<void> }> = [
  {
    name: 'queue-detail',
    open: async (page) => {
      await go(page, 'Queue');
      await revealQueueRow(page, `[data-testid=job-row][data-name="${LONG_NAMES[0]}"]`);
      await jobRow(page, LONG_NAMES[0]!).dblclick();
      await expect(page.getByTestId('job-detail')).toBeVisible();
    },
  },
  {
    name: 'history-detail',
    open: async (page) => {
      await go(page, 'History');
      // Found by name, however many files other specs added after it.
      await page.getByRole('searchbox', { name: 'Search file names' }).fill('deputy mayor');
      await page.locator(`[data-testid=history-row][data-name="${LONG_NAMES[1]}"]`).click();
      await expect(page.getByTestId('history-detail')).toBeVisible();
    },
  },
  { name: 'usage', open: (page) => go(page, 'Usage') },
  { name: 'settings', open: (page) => go(page, 'Settings') },
];

for (const size of SIZES) {
  for (const theme of THEMES) {
    test(`every control is within reach (${theme}, ${size.width}×${size.height})`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: theme });
      await openApp(page);
      const cut: string[] = [];
      for (const s of SCREENS) {
        await s.open(page);
        await steadyForAxe(page);
        await shot(page, `layout-${s.name}-${theme}-${size.name}`);
        for (const c of await offscreen(page)) cut.push(`${s.name}: ${c}`);
        await page.keyboard.press('Escape');
      }
      expect(cut).toEqual([]);
    });
  }
}

/** Whether the characters of `needle` inside `el` are drawn within every box that clips them. */
async function visibleText(page: Page, selector: string, needle: string): Promise<boolean> {
  return page.evaluate(
    ([sel, text]) => {
      const root = document.querySelector(sel!);
      if (!root) return false;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = n.textContent?.indexOf(text!) ?? -1;
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(n, at);
        range.setEnd(n, at + text!.length);
        const r = range.getBoundingClientRect();
        for (let a = n.parentElement; a; a = a.parentElement) {
          const cs = getComputedStyle(a);
          if (cs.overflowX === 'visible') continue;
          const ar = a.getBoundingClientRect();
          if (r.left < ar.left - 0.5 || r.right > ar.right + 0.5) return false;
        }
        return r.width > 0;
      }
      return false;
    },
    [selector, needle],
  );
}

for (const size of SIZES) {
  test(`long names keep their end visible and show in full on hover and in the panel (${size.width}×${size.height})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await openApp(page);
    await go(page, 'Queue');
    for (const [i, take] of ['(take 2)', '(take 3)'].entries()) {
      const sel = `[data-testid=job-row][data-name="${LONG_NAMES[i]}"]`;
      await revealQueueRow(page, sel);
      expect(await visibleText(page, sel, take), `${take} visible in the Queue row`).toBe(true);
      await expect(page.locator(sel).locator(`[title="${LONG_NAMES[i]}"]`)).toHaveCount(1);
    }
    await jobRow(page, LONG_NAMES[1]!).dblclick();
    expect(await visibleText(page, '[data-testid=job-detail] h2', '(take 3).wav')).toBe(true);
    expect(await visibleText(page, '[data-testid=job-detail] h2', 'Interview with')).toBe(true);
    await go(page, 'History');
    // Found by name, however many files other specs added before them.
    await page.getByRole('searchbox', { name: 'Search file names' }).fill('deputy mayor');
    for (const [i, take] of ['(take 2)', '(take 3)'].entries()) {
      const sel = `[data-testid=history-row][data-name="${LONG_NAMES[i]}"]`;
      // History loads its page of rows after the screen shows (later still on a busy machine).
      await expect
        .poll(() => visibleText(page, sel, take), { message: `${take} visible in the History row` })
        .toBe(true);
    }
  });
}

test('at 1024 × 640 the sidebar is icons only, more rows show, and header labels are whole', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  await openApp(page);
  await go(page, 'Queue');
  const nav = await page.getByRole('navigation', { name: 'Screens' }).boundingBox();
  expect(nav?.width).toBeLessThanOrEqual(64);
  // How many rows the list shows at once (the list renders more than it shows).
  const fit = await page.getByRole('grid', { name: 'Jobs' }).evaluate((g) => {
    const row = g.querySelector<HTMLElement>('[role=row]');
    return row ? Math.floor(g.clientHeight / row.offsetHeight) : 0;
  });
  expect(fit).toBeGreaterThanOrEqual(8);
  // Column titles are never cut mid-word.
  const cutHeads = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.list-head > span'))
      .filter((s) => s.offsetWidth > 0 && s.scrollWidth > s.clientWidth + 1)
      .map((s) => s.textContent),
  );
  expect(cutHeads).toEqual([]);
  await go(page, 'Usage');
  const wrapped = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[data-testid^=stat-] .value'))
      .filter(
        (v) =>
          v.getClientRects().length > 0 &&
          v.getBoundingClientRect().height > parseFloat(getComputedStyle(v).lineHeight) * 1.5,
      )
      .map((v) => v.textContent),
  );
  expect(wrapped).toEqual([]);
  await shot(page, 'layout-usage-small-tiles');
});

test('number fields in Settings: the label never covers the value', async ({ page }) => {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await openApp(page);
    await go(page, 'Settings');
    const overlaps = await page.evaluate(() => {
      const out: string[] = [];
      for (const input of Array.from(
        document.querySelectorAll<HTMLInputElement>('input[type=number], input[type=text], select'),
      )) {
        const label = input.id ? document.querySelector<HTMLElement>(`label[for="${CSS.escape(input.id)}"]`) : null;
        if (!label || input.getClientRects().length === 0) continue;
        const a = label.getBoundingClientRect();
        const b = input.getBoundingClientRect();
        const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        if (overlap || label.scrollWidth > label.clientWidth + 1) out.push(`${input.id}: "${label.textContent}"`);
      }
      return out;
    });
    expect(overlaps, `${size.width}×${size.height}`).toEqual([]);
    const speakers = page.locator('[id$="-maxSpeakersNumber"]').first();
    if (await speakers.count()) {
      await speakers.scrollIntoViewIfNeeded();
      await shot(page, `layout-settings-speakers-${size.name}`);
    }
  }
});

/** Column titles of the Queue's list that overlap a neighbour or are cut (by their text's own box). */
async function queueHeadProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const shown = Array.from(document.querySelectorAll<HTMLElement>('.list-head > span'))
      .filter((s) => s.textContent?.trim() && s.getClientRects().length > 0)
      .map((s) => {
        const range = document.createRange();
        range.selectNodeContents(s);
        return { name: s.textContent ?? '', span: s.getBoundingClientRect(), text: range.getBoundingClientRect() };
      });
    const out: string[] = [];
    for (const [i, h] of shown.entries()) {
      if (h.text.right > h.span.right + 0.5 || h.text.left < h.span.left - 0.5)
        out.push(`${h.name} is wider than its column`);
      const next = shown[i + 1];
      if (next && h.text.right > next.text.left - 4) out.push(`${h.name} runs into ${next.name}`);
    }
    return out;
  });
}

/** The colours of the long straight lines (grid lines) a chart draws, as `r,g,b`. */
async function chartLineColours(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen = new Set<string>();
    for (const canvas of Array.from(document.querySelectorAll<HTMLCanvasElement>('.chart-card canvas'))) {
      const ctx = canvas.getContext('2d');
      if (!ctx || canvas.width === 0) continue;
      const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      for (let y = 0; y < height; y++) {
        const counts = new Map<string, number>();
        for (let x = 0; x < width; x++) {
          const o = (y * width + x) * 4;
          // Opaque greys only: the bars are coloured.
          const [r, g, b] = [data[o]!, data[o + 1]!, data[o + 2]!];
          if (data[o + 3]! < 200 || Math.max(r, g, b) - Math.min(r, g, b) > 24) continue;
          const k = `${data[o]},${data[o + 1]},${data[o + 2]}`;
          counts.set(k, (counts.get(k) ?? 0) + 1);
        }
        for (const [k, n] of counts) if (n > width * 0.4) seen.add(k);
      }
    }
    return [...seen];
  });
}

/** Tiles of Usage whose label or value is cut, or that run out of their row. */
async function cutTiles(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[data-testid^=stat-]'))
      .filter((t) => {
        const label = t.querySelector<HTMLElement>('.label');
        const parent = t.parentElement?.getBoundingClientRect();
        return (
          !label ||
          label.scrollWidth > label.clientWidth + 1 ||
          t.scrollWidth > t.clientWidth + 1 ||
          (parent !== undefined && t.getBoundingClientRect().right > parent.right + 0.5)
        );
      })
      .map((t) => t.dataset.testid ?? ''),
  );
}

/** The theme's line colour (--border) as `r,g,b`. */
async function borderColour(page: Page): Promise<string> {
  return page.evaluate(() => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--border)';
    document.body.append(probe);
    const c = getComputedStyle(probe).color.match(/\d+/g)!.slice(0, 3).join(',');
    probe.remove();
    return c;
  });
}

test('at 800 × 600: Queue headers beside the open detail, Usage tiles with whole labels, subtle chart lines', async ({
  page,
}) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.emulateMedia({ colorScheme: 'light' });
  await openApp(page);
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await go(page, 'Queue');
    await revealQueueRow(page, `[data-testid=job-row][data-name="${LONG_NAMES[0]}"]`);
    await jobRow(page, LONG_NAMES[0]!).dblclick();
    await expect(page.getByTestId('job-detail')).toBeVisible();
    await steadyForAxe(page);
    await shot(page, `layout-800-queue-detail-${theme}`);
    expect(await queueHeadProblems(page), `Queue headers, ${theme}`).toEqual([]);
    // The row's file name and folder are not covered by its state either: cut inside their cell.
    const cells = await jobRow(page, LONG_NAMES[0]!).evaluate((row) => {
      const file = row.querySelector<HTMLElement>(':scope > .file')!;
      const badge = row.querySelector<HTMLElement>(':scope > .badge')!;
      const clipped = getComputedStyle(file).overflowX !== 'visible' || file.scrollWidth <= file.clientWidth + 1;
      return { apart: file.getBoundingClientRect().right <= badge.getBoundingClientRect().left + 0.5, clipped };
    });
    expect(cells, `row cells, ${theme}`).toEqual({ apart: true, clipped: true });
    await page.keyboard.press('Escape');

    await go(page, 'Usage');
    await expect(page.locator('[data-testid^=stat-]').first()).toBeVisible();
    await expect(page.locator('.chart-card canvas').first()).toBeVisible();
    await steadyForAxe(page);
    await shot(page, `layout-800-usage-${theme}`);
    expect(await cutTiles(page), `Usage tiles, ${theme}`).toEqual([]);
    // The grid lines are drawn in the theme's own subtle line colour, the dark one's after the switch.
    const border = await borderColour(page);
    await expect.poll(() => chartLineColours(page), { message: `chart lines, ${theme}` }).toEqual([border]);
    if (theme === 'light') {
      // The system turns dark while Usage is on screen, as an OS does at dusk: the lines follow, no reload.
      await page.emulateMedia({ colorScheme: 'dark' });
      const dark = await borderColour(page);
      await expect.poll(() => chartLineColours(page), { message: 'chart lines after the switch' }).toEqual([dark]);
      await shot(page, 'layout-800-usage-switched-dark');
    }
  }
});
