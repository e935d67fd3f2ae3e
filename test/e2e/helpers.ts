/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Shared pieces of the e2e flows: opening the app, generated media, DataTransfer drops, screenshots.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pcmWav } from '../helpers/media.js';
import { startServe } from './server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** A spec's own server for this worker (useOwnServer), over the worker's shared one. */
const pointed: Record<string, string | undefined> = {};

/**
 * Points this worker's specs at a server of the spec's own (`undefined` for the worker's shared
 * server again): its address, and its embedded sandbox and state folder when it has them.
 */
export function pointAt(server: { url: string; embedded?: string; state?: string } | undefined): void {
  pointed.SLUICE_E2E_URL = server?.url;
  pointed.SLUICE_E2E_EMBEDDED = server?.embedded;
  pointed.SLUICE_E2E_STATE = server?.state;
}

/**
 * This worker's value of a variable global-setup.ts set for every worker (a JSON list, one per
 * worker; Playwright numbers its workers from 0 in TEST_PARALLEL_INDEX).
 */
function ofThisWorker(key: string): string {
  const own = pointed[key];
  if (own !== undefined) return own;
  const all = JSON.parse(process.env[key] ?? '[]') as string[];
  return all[Number(process.env.TEST_PARALLEL_INDEX ?? 0)] ?? '';
}

export const env = {
  get url(): string {
    return ofThisWorker('SLUICE_E2E_URL');
  },
  get sandbox(): string {
    return ofThisWorker('SLUICE_E2E_SANDBOX');
  },
  get embedded(): string {
    return ofThisWorker('SLUICE_E2E_EMBEDDED');
  },
  get state(): string {
    return ofThisWorker('SLUICE_E2E_STATE');
  },
  get work(): string {
    return ofThisWorker('SLUICE_E2E_WORK');
  },
};

/**
 * The page's calls to the bridge on `channel` (`queue:cancel`...) from now on, in the order the
 * page sends them: a test that advances the page's clock past an Undo window reads here whether
 * the delayed call went out.
 */
export function bridgeCalls(page: Page, channel: string): string[] {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (decodeURIComponent(new URL(r.url()).pathname).endsWith(channel)) sent.push(r.postData() ?? '');
  });
  return sent;
}

/**
 * Lets the page finish what its timers started (a timer's callback and the calls it makes): one
 * turn of the page's own event loop, then the bridge's next answer.
 */
export async function settledPage(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
}

/**
 * Waits until the screen is at rest before axe reads its colours: no list dimmed while it reloads
 * (History's rows are at 60% while a query is out) and no transition running (a theme switch fades
 * backgrounds for 120 ms). axe judges the screen the editor reads, not one caught mid-change.
 */
export async function steadyForAxe(page: Page): Promise<void> {
  await expect(page.locator('.stale')).toHaveCount(0);
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

/** Opens the app and fails the test on any console error or CSP violation. */
export async function openApp(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/favicon/.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(env.url);
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
  return problems;
}

export async function go(page: Page, screen: 'Queue' | 'History' | 'Usage' | 'Settings'): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: screen }).click();
  await expect(page.getByRole('heading', { level: 1, name: screen })).toBeVisible();
}

/**
 * Adds a watch folder from Settings as an editor does (Add folder, the path typed, Add folder) and
 * waits for its row. Settings must be open. The region, the editor and the new row are returned.
 */
export async function addWatchFolder(page: Page, folder: string, shown = folder) {
  const folders = page.getByRole('region', { name: 'Watch folders' });
  await folders.getByRole('button', { name: 'Add folder' }).click();
  const editor = folders.getByTestId('folder-editor');
  await editor.getByRole('textbox', { name: 'Folder', exact: true }).fill(folder);
  await editor.getByRole('button', { name: 'Add folder' }).click();
  const row = folders.getByTestId('watch-folder').filter({ hasText: shown });
  await expect(row).toBeVisible();
  return { folders, editor, row };
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(root, 'test-results/screenshots', `${name}.png`) });
}

/**
 * `text` spoken by espeak-ng (at `wordsPerMinute`) under a moving test picture: a short WebM any
 * Chromium plays, written in `dir` as `name`.webm.
 */
export function spokenWebm(dir: string, name: string, text: string, wordsPerMinute: number): string {
  const wav = path.join(dir, `${name}-speech.wav`);
  const out = path.join(dir, `${name}.webm`);
  const say = spawnSync('espeak-ng', ['-w', wav, '-s', String(wordsPerMinute), text]);
  expect(say.status, String(say.stderr)).toBe(0);
  const ff = spawnSync('ffmpeg', [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=15', '-i', wav, '-shortest'],
    // Encoded for speed (the machine is shared; the flows read the words, not the picture's quality).
    ...['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k', '-c:a', 'libopus', out],
  ]);
  expect(ff.status, String(ff.stderr)).toBe(0);
  return out;
}

/** A 16-bit mono WAV with a tone at full scale (the sandbox treats near-silence as "no speech"). */
export function toneWav(seconds: number, hz = 440, rate = 16_000): Buffer {
  return pcmWav(Math.round(seconds * rate), {
    sampleRate: rate,
    sample: (i) => Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 20000),
  });
}

export function writeWav(dir: string, name: string, seconds: number): string {
  const p = path.join(dir, name);
  writeFileSync(p, toneWav(seconds));
  return p;
}

/** Drops files on the window the way a file manager does: a DataTransfer holding File objects. */
export async function dropFiles(
  page: Page,
  files: Array<{ name: string; mimeType: string; base64: string }>,
): Promise<void> {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.mimeType }));
    }
    const target = document.querySelector('main') ?? document.body;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, files);
}

export const SIZES = [
  { name: 'wide', width: 1360, height: 860 },
  { name: 'small', width: 1024, height: 640 },
] as const;
export const THEMES = ['light', 'dark'] as const;

/** Long names that differ only at their end: truncation has to keep the end visible. */
export const LONG_NAMES = [
  'Interview with the deputy mayor about the new tram network and the riverside car park (take 2).wav',
  'Interview with the deputy mayor about the new tram network and the riverside car park (take 3).wav',
];

function wavFile(name: string, seconds: number): { name: string; mimeType: string; base64: string } {
  return { name, mimeType: 'audio/wav', base64: toneWav(seconds).toString('base64') };
}

/**
 * Gives the screens something to show, once per server: completed jobs (two with long names that
 * differ only at the end), a failed one, and two held in the queue by a pause. Leaves the queue paused.
 */
export async function seedScreens(page: Page): Promise<void> {
  await openApp(page);
  await go(page, 'Queue');
  const row = (n: string) => page.locator(`[data-testid=job-row][data-name="${n}"]`);
  if ((await row(LONG_NAMES[0]!).count()) === 0) {
    await dropFiles(page, [wavFile(LONG_NAMES[0]!, 1), wavFile(LONG_NAMES[1]!, 1), wavFile('seed-short.wav', 1)]);
    // Media the service cannot transcode: taken, uploaded, failed there.
    await failAtService(['seed-broken.wav']);
    await dropFiles(page, [wavFile('seed-broken.wav', 1)]);
    for (const n of [...LONG_NAMES, 'seed-short.wav']) {
      await expect(row(n)).toHaveAttribute('data-state', 'completed', { timeout: 45_000 });
    }
    await expect(row('seed-broken.wav')).toHaveAttribute('data-state', 'failed', { timeout: 45_000 });
  }
  if ((await page.getByTestId('pause-banner').count()) === 0) {
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(page.getByTestId('pause-banner')).toBeVisible();
  }
  // Two files held in the paused queue. A spec before this one may have let them run (each spec
  // leaves the queue running): those leave the list, and two new ones (a tone of their own, so not
  // the same file again) wait in their place.
  const HELD = ['seed-held-1.wav', 'seed-held-2.wav'];
  const { jobs } = await bridge<{ jobs: Array<{ id: string; fileName: string; state: string }> }>('queue:snapshot');
  const held = jobs.filter((j) => HELD.includes(j.fileName));
  if (held.length === HELD.length && held.every((j) => j.state === 'queued')) return;
  const finished = ['completed', 'failed', 'canceled', 'expired'];
  for (const j of held) {
    if (!finished.includes(j.state)) await bridge('queue:cancel', { id: j.id });
    await expect
      .poll(async () => (await bridge<{ jobs: typeof jobs }>('queue:snapshot')).jobs.find((k) => k.id === j.id)?.state)
      .toMatch(/^(completed|failed|canceled|expired)$/);
    await bridge('queue:dismiss', { id: j.id });
  }
  await expect(row(HELD[0]!)).toHaveCount(0);
  await expect(row(HELD[1]!)).toHaveCount(0);
  const hz = 200 + (Date.now() % 100_000) / 100;
  await dropFiles(
    page,
    HELD.map((name) => ({ name, mimeType: 'audio/wav', base64: toneWav(1, hz).toString('base64') })),
  );
  await expect(row(HELD[1]!)).toHaveAttribute('data-state', 'queued');
}

/** Brings a Queue row into the list's drawn rows (it draws those near what it shows), top down. */
export async function revealQueueRow(page: Page, selector: string): Promise<void> {
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await grid.evaluate((g) => g.scrollTo(0, 0));
  for (let i = 0; i < 100 && (await page.locator(selector).count()) === 0; i++) {
    await grid.evaluate((g) => g.scrollBy(0, g.clientHeight / 2));
  }
  await page.locator(selector).scrollIntoViewIfNeeded();
}

export const jobRow = (page: Page, name: string) => page.locator(`[data-testid=job-row][data-name="${name}"]`);

/** What has focus, described; `<body>` when focus was lost. */
export async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '<body>';
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
    return `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''} ${name}`;
  });
}

/**
 * Damaged media is refused before upload (the media probe reads it), so a file that fails at the
 * service is made there: the embedded sandbox fails every stream of these names as the service
 * fails media it cannot transcode. Each call replaces the plan; `[]` clears it.
 */
export async function failAtService(names: string[]): Promise<void> {
  const plan =
    names.length === 0
      ? {}
      : {
          processingFailure: {
            everyKth: 1,
            names,
            internalErrorName: 'PROCESSOR_TRANSCODING_ERROR',
            detail: 'JobFailedException: Invalid data found when processing input',
          },
        };
  const r = await fetch(`${env.embedded}/sandbox/admin/faults`, {
    method: 'PUT',
    headers: { authorization: 'Basic sandbox-key', 'content-type': 'application/json' },
    body: JSON.stringify(plan),
  });
  expect(r.status).toBe(200);
}

/**
 * One POST to the web bridge with the token `sluice serve` printed: JSON for an object, a FormData
 * body (an upload) sent as is. Throws with the bridge's own message when the request is refused.
 */
export async function bridge<T = unknown>(channel: string, body: FormData | object = {}): Promise<T> {
  const url = new URL(env.url);
  // The body as fetch would send it (a FormData's multipart boundary included), sent on a
  // connection of its own: a kept-alive socket the server closed while this process was busy (a
  // video encoded in the test) would fail the request with EPIPE before Sluice ever saw it.
  const encoded = new Response(body instanceof FormData ? body : JSON.stringify(body));
  const bytes = Buffer.from(await encoded.arrayBuffer());
  const text = await new Promise<string>((resolve, reject) => {
    const req = httpRequest(
      new URL(`api/${channel}`, url.origin + url.pathname),
      {
        method: 'POST',
        agent: false,
        headers: {
          'x-sluice-token': new URLSearchParams(url.hash.slice(1)).get('token') ?? '',
          'content-type': body instanceof FormData ? (encoded.headers.get('content-type') ?? '') : 'application/json',
          'content-length': bytes.length,
        },
      },
      (res) => {
        let out = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (out += d));
        res.on('end', () => resolve(out));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
  const answer = JSON.parse(text) as { ok: boolean; value?: T; error?: { message: string } };
  if (!answer.ok) throw new Error(`${channel}: ${answer.error?.message}`);
  return answer.value as T;
}

/**
 * For a spec that pauses the queue (seedScreens does): the queue runs again when the spec ends,
 * passed or failed, so the spec after it finds it as a fresh start would, whatever their order.
 */
export function resumeQueueAfterSpec(): void {
  test.afterAll(async () => {
    await bridge('queue:resume');
  });
}

/**
 * For a spec that changes settings through the bridge: the named parts are read before it and
 * written back after it, passed or failed, so the specs after it find them as they were.
 */
export function keepSettingsForSpec(parts: ReadonlyArray<'defaults' | 'queue' | 'spendingGuard' | 'usage'>): void {
  let saved: Record<string, unknown> = {};
  test.beforeAll(async () => {
    const now = await bridge<Record<string, unknown>>('settings:get');
    saved = Object.fromEntries(parts.map((k) => [k, now[k]]));
  });
  test.afterAll(async () => {
    await bridge('settings:update', { patch: saved });
  });
}

/**
 * For a spec about a first start (an empty queue, no folder yet, no history): a `sluice serve` of
 * its own on a fresh state folder for the spec's tests, whatever the specs before it left on the
 * shared one. The shared server's addresses come back when the spec ends.
 */
export function useOwnServer(): void {
  let own: { child: ChildProcess; state: string } | undefined;
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    const state = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-own-state-'));
    const serve = await startServe(state);
    own = { child: serve.child, state };
    pointAt({ url: serve.url, embedded: serve.embedded, state });
  });
  test.afterAll(async () => {
    pointAt(undefined);
    if (!own) return;
    const { child, state } = own;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(state, { recursive: true, force: true });
  });
}

/**
 * Adds files as a drop on the window does (through the bridge), and waits until each has finished;
 * answers the jobs as the Queue then lists them.
 */
export async function processFiles(
  files: ReadonlyArray<{ name: string; seconds: number }>,
): Promise<Array<{ id: string; fileName: string; state: string }>> {
  for (const f of files) {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(toneWav(f.seconds))], { type: 'audio/wav' }), f.name);
    await bridge('queue:upload', form);
  }
  const names = new Set(files.map((f) => f.name));
  const mine = async (): Promise<Array<{ id: string; fileName: string; state: string }>> =>
    (await bridge<{ jobs: Array<{ id: string; fileName: string; state: string }> }>('queue:snapshot')).jobs.filter(
      (j) => names.has(j.fileName),
    );
  await expect
    .poll(async () => (await mine()).filter((j) => /^(completed|failed|canceled)$/.test(j.state)).length, {
      timeout: 90_000,
    })
    .toBe(files.length);
  return mine();
}

/**
 * axe as the flows run it: every rule, each violation with all its nodes. Run in the page itself
 * (axe's legacy mode: the app has no frames, so there is no cross-origin frame to lose) instead of
 * opening a blank page per run to gather the results in, and with passes and incomplete results
 * kept to one node per rule (`resultTypes`; no flow reads them). Measured on Settings with the
 * machine loaded: 8–12 s a run before, 1–2 s after, the same violations.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
}

/** axe over the page, or only what `scope` selects: no serious or critical finding, named by `label`. */
export async function expectNoSeriousAxe(page: Page, label: string, scope?: string): Promise<void> {
  await steadyForAxe(page);
  const builder = axe(page);
  const { violations } = await (scope ? builder.include(scope) : builder).analyze();
  const bad = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}

/**
 * A time bound checked where the machine is not overloaded: with the load average above twice the
 * cores (other work sharing them), a frame or a round trip measures the other work as much as the
 * app, so the value is recorded in the report and not held to the bound. Speed targets proper are
 * `npm run bench`'s; these catch a screen gone slow by an order of magnitude.
 */
export function expectQuickOnQuietMachine(ms: number, boundMs: number, what: string): void {
  const load = loadavg()[0] ?? 0;
  const cores = availableParallelism();
  test
    .info()
    .annotations.push({ type: 'timing', description: `${what}: ${ms.toFixed(0)} ms (load ${load.toFixed(1)})` });
  if (load <= 2 * cores) expect(ms, `${what} (load ${load.toFixed(1)} on ${cores} cores)`).toBeLessThan(boundMs);
}
