/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Scale: 10,000 queue rows and 100,000 history rows through the renderer's Electron path. A stub
// `window.api` (what the preload exposes) answers from generated data, so this measures the list,
// not the engine; the other flows cover the engine.
import { expect, test } from '@playwright/test';
import { expectQuickOnQuietMachine, openApp, shot } from './helpers.js';

test('10,000 jobs and 100,000 history entries render only the visible rows and scroll quickly', async ({ page }) => {
  await page.addInitScript(() => {
    const now = Date.now();
    const states = ['completed', 'failed', 'queued', 'uploading', 'processing', 'canceled'] as const;
    const job = (i: number) => ({
      id: `job-${i}`,
      fileName: `clip-${String(i).padStart(5, '0')}.wav`,
      folder: '/media/incoming',
      sourcePath: `/media/incoming/clip-${i}.wav`,
      origin: { kind: 'manual' },
      state: states[i % states.length],
      template: { id: 't', name: 'Transcription' },
      params: {},
      uploadedBytes: 400_000,
      totalBytes: 1_000_000,
      bytesPerSecond: 250_000,
      timings: { created: now - i * 1000, started: now - 5000, uploaded: now - 2000, completed: now - 1000 },
      stuck: false,
      results: [],
      dismissed: false,
      canRetry: true,
      canCancel: true,
      canRewrite: false,
      canMove: false,
      canDismiss: false,
      position: i,
    });
    const jobs = Array.from({ length: 10_000 }, (_, i) => job(i));
    const counts = {
      queued: 0,
      uploading: 0,
      processing: 0,
      exporting: 0,
      completed: 0,
      failed: 0,
      canceled: 0,
      expired: 0,
    };
    for (const j of jobs) counts[j.state as keyof typeof counts] += 1;
    const stats = {
      counts,
      batch: {
        id: 1,
        done: 5000,
        completed: 1667,
        failed: 1667,
        canceled: 1666,
        total: 10_000,
        startedAt: now - 600_000,
        throughput: 1_000_000,
        estimate: 'eta',
        etaMs: 600_000,
        pace: 0.5,
        paceLearned: false,
      },
      offline: false,
      stoppingAfterCurrent: false,
    };
    const ok = (value: unknown) => Promise.resolve({ ok: true, value });
    const answers: Record<string, (p: Record<string, number>) => Promise<unknown>> = {
      'app:info': () =>
        ok({
          version: '0',
          platform: 'electron',
          simulated: false,
          connection: 'Stub service',
          os: 'test',
          startAtLoginSupported: false,
        }),
      'queue:snapshot': () => ok({ ...stats, jobs, generatedAt: now }),
      'history:list': (q) => {
        const size = q.pageSize ?? 200;
        const start = (q.page ?? 0) * size;
        const entries = Array.from({ length: Math.min(size, 100_000 - start) }, (_, k) => {
          const i = start + k;
          return {
            key: `job:${i}`,
            origin: 'local',
            jobId: `h-${i}`,
            fileName: `archive-${String(i).padStart(6, '0')}.mp4`,
            template: { id: 't', name: 'Transcription' },
            state: 'completed',
            createdAt: now - i * 60_000,
            results: [],
            canCancelStream: false,
            canRerun: true,
            canReexport: true,
          };
        });
        return ok({
          entries,
          total: 100_000,
          page: q.page ?? 0,
          pageSize: size,
          external: { included: false },
          computers: [],
        });
      },
      'templates:list': () => ok({ templates: [], source: 'builtin' }),
      'folders:statuses': () => ok([]),
    };
    const api = new Proxy(
      { platform: 'electron', files: { pathForFile: () => undefined } } as Record<string, unknown>,
      {
        get(target, domain: string) {
          if (domain in target) return target[domain];
          if (domain.startsWith('on')) return () => () => {};
          return new Proxy(
            {},
            {
              get: (_t, verb: string) => (p: Record<string, number>) =>
                (answers[`${domain}:${verb}`] ?? (() => ok(null)))(p),
            },
          );
        },
      },
    );
    (window as unknown as { api: unknown }).api = api;
  });
  const problems = await openApp(page);
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid.getByTestId('job-row').first()).toBeVisible();
  expect(await grid.getByTestId('job-row').count()).toBeLessThan(60);
  // Jump to the end and back with the keyboard: the list follows the selection.
  await grid.focus();
  const t0 = Date.now();
  await page.keyboard.press('End');
  await expect(grid.locator('[aria-rowindex="10000"]')).toBeVisible();
  expectQuickOnQuietMachine(Date.now() - t0, 2000, 'End to the 10,000th row');
  // Wheel-scroll through a thousand rows: frames stay short.
  const frame = await page.evaluate(async () => {
    const el = document.querySelector('[role=grid]') as HTMLElement;
    el.scrollTop = 0;
    const times: number[] = [];
    let last = performance.now();
    for (let i = 0; i < 60; i++) {
      el.scrollTop += 900;
      await new Promise(requestAnimationFrame);
      const t = performance.now();
      times.push(t - last);
      last = t;
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length * 0.9)] ?? 0;
  });
  expectQuickOnQuietMachine(frame, 100, 'queue scroll frame (90th percentile)');
  expect(await grid.getByTestId('job-row').count()).toBeLessThan(60);
  await shot(page, 'queue-10000');

  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('history-total')).toContainText('100,000');
  const list = page.getByRole('grid', { name: 'History' });
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect(list.locator('[data-testid=history-row][data-name="archive-050000.mp4"]')).toBeVisible();
  expect(await list.getByTestId('history-row').count()).toBeLessThan(60);
  await shot(page, 'history-100000');
  expect(problems).toEqual([]);
});
