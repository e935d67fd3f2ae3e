import { svelte } from '@sveltejs/vite-plugin-svelte';
import path from 'node:path';
import picomatch from 'picomatch';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOW_FIRST, TIERS, UNIT_WITH_SINGLETONS, type TierName } from './test/tiers.js';

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

/**
 * The unit tier as two projects. Its files share a worker's loaded modules instead of importing the
 * engine again for each file (a third of the time it took): pure code keeps no state between
 * files. The renderer's files drive app-wide singletons (`app`, the bridge), so each of those
 * still gets modules of its own. `--project 'unit*'` runs both.
 */
const unitShared = {
  extends: true as const,
  test: { ...tier('unit').test, exclude: [...tier('unit').test.exclude, ...UNIT_WITH_SINGLETONS], isolate: false },
};
const unitIsolated = {
  extends: true as const,
  test: {
    ...tier('unit').test,
    name: 'unit-singletons',
    include: tier('unit').test.include.filter((g) => picomatch.scan(g).base.startsWith('test/renderer')),
  },
};

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
    projects: [unitShared, unitIsolated, tier('integration'), tier('packaging')],
  },
});
