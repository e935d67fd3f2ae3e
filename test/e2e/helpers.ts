/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser: this file needs the DOM types.)
// Shared pieces of the e2e flows: opening the app, generated media, DataTransfer drops, screenshots.
import { expect, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const env = {
  get url(): string {
    return process.env.SLUICE_E2E_URL ?? '';
  },
  get sandbox(): string {
    return process.env.SLUICE_E2E_SANDBOX ?? '';
  },
  get embedded(): string {
    return process.env.SLUICE_E2E_EMBEDDED ?? '';
  },
  get state(): string {
    return process.env.SLUICE_E2E_STATE ?? '';
  },
  get work(): string {
    return process.env.SLUICE_E2E_WORK ?? '';
  },
};

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

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(root, 'test-results/screenshots', `${name}.png`) });
}

/** A 16-bit mono WAV with a tone at full scale (the sandbox treats near-silence as "no speech"). */
export function toneWav(seconds: number, hz = 440): Buffer {
  const rate = 16_000;
  const n = Math.round(seconds * rate);
  const buf = Buffer.alloc(44 + n * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + n * 2, 4);
  buf.write('WAVEfmt ', 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) buf.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 20000), 44 + i * 2);
  return buf;
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
