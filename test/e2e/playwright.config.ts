// Browser flows against the real renderer, the real engine behind the web bridge (`sluice serve`)
// and the embedded sandbox. Debian's Chromium only: no browser is ever downloaded.
import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { E2E_WORKERS } from './workers.js';

/**
 * Debian's old headless shell (package chromium-headless-shell) when installed: the same Blink and
 * media stack without the full browser's compositor, a third less CPU for the same flows (measured
 * on the accessibility flow). Else the full Chromium in headless mode.
 */
const CHROMIUM =
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p)) ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  // One server and state dir per worker (global-setup.ts), one spec at a time on each. A spec
  // leaves the queue running and the settings it changed as it found them, and makes the jobs it
  // reads (helpers.ts): specs pass in either order and beside any other. The first-start flows,
  // History's and Usage's get a server of their own.
  workers: E2E_WORKERS,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: '../../test-results/playwright-artifacts',
  reporter: [['list'], ['json', { outputFile: '../../test-results/playwright.json' }]],
  globalSetup: './global-setup.ts',
  use: {
    viewport: { width: 1360, height: 860 },
    colorScheme: 'light',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
