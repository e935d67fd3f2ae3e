import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { TIERS, type TierName } from './test/tiers.js';

/**
 * Test files run at once. Most files wait on timers, child processes and the sandbox rather than
 * the CPU, so more workers than cores pay off; every file makes its own temp folders, ports and
 * state. SLUICE_TEST_WORKERS overrides it (1 to run one file at a time while debugging).
 */
const workers = Number(process.env.SLUICE_TEST_WORKERS) || 3;

const tier = (name: TierName) => ({
  extends: true as const,
  test: { name, include: [...TIERS[name].include], exclude: [...TIERS[name].exclude, 'node_modules/**'] },
});

export default defineConfig({
  // The renderer's state classes (`*.svelte.ts`, runes) compile as they do for the app, so a test
  // can drive one against a real bridge without a browser.
  plugins: [svelte({ configFile: false })],
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: workers,
    // A folder per run: media the tests make alike, and the CLI, are made once (test/helpers/run-folder.ts).
    globalSetup: ['./test/global-setup.ts'],
    projects: [tier('unit'), tier('integration'), tier('packaging')],
  },
});
