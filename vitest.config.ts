import { svelte } from '@sveltejs/vite-plugin-svelte';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { hasOwnModules, inTier, SLOW_FIRST, testFiles, type TierName } from './test/tiers.js';

/**
 * Test files run at once. Most files wait on timers, child processes and the sandbox rather than
 * the CPU, so more workers than cores pay off; every file makes its own temp folders, ports and
 * state. SLUICE_TEST_WORKERS overrides it (1 to run one file at a time while debugging).
 */
const workers = Number(process.env.SLUICE_TEST_WORKERS) || 3;

const files = testFiles(import.meta.dirname);

/**
 * A tier as vitest projects: its files that share their worker's loaded modules (`isolate: false`:
 * a file no longer imports the engine, the sandbox and vitest's own runtime again), and those that
 * load their own (OWN_MODULES in test/tiers.ts), as `<tier>-own-modules`. `--project '<tier>*'`
 * runs both.
 */
function tierProjects(name: TierName) {
  const mine = files.filter((f) => inTier(name, f));
  const own = mine.filter(hasOwnModules);
  return [
    { extends: true as const, test: { name, include: mine.filter((f) => !hasOwnModules(f)), isolate: false } },
    ...(own.length > 0 ? [{ extends: true as const, test: { name: `${name}-own-modules`, include: own } }] : []),
  ];
}

/** vitest's order (longest first when it has timings), with the known slow files before the rest. */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = SLOW_FIRST.indexOf(path.relative(process.cwd(), f.moduleId).replaceAll('\\', '/'));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

export default defineConfig({
  // The renderer's state classes (`*.svelte.ts`, runes) compile as they do for the app, so a test
  // can drive one against a real bridge without a browser.
  plugins: [svelte({ configFile: false })],
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: workers,
    sequence: { sequencer: SlowFirst },
    // A folder per run: media the tests make alike, and the CLI, are made once (test/helpers/run-folder.ts).
    globalSetup: ['./test/global-setup.ts'],
    projects: [...tierProjects('unit'), ...tierProjects('integration'), ...tierProjects('packaging')],
  },
});
