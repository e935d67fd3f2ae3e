// The test tiers, by file. vitest.config.ts builds one project per tier from these lists, and
// test/architecture/tiers.test.ts holds the unit tier to its promise (no processes, servers,
// sockets, worker threads or the sandbox).
//
//   unit         pure code: the engine, the renderer's rules and state classes against memory
//                ports, the contract's views, the architecture. Seconds; one Node is enough.
//   integration  real files, watchers, child processes, HTTP, SQLite, keytar and the sandbox:
//                everything the Node version can change, so CI runs it under Electron's Node too.
//   packaging    the project as installed and packaged: `npm ci`'s build serving the interface,
//                electron-builder with a stand-in Electron. Slow, and independent of the rest; the
//                builders run under the system's Node whichever Node runs the tests, so once.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/** Pure tests outside the folders that are pure as a whole. */
const PURE_FILES = [
  'test/adapters/queue/active-jobs.test.ts',
  'test/adapters/queue/stream-tracker.test.ts',
  'test/adapters/results/link-destination.test.ts',
  'test/adapters/watch/folder/folder-skips.test.ts',
  'test/adapters/store/secrets/keychain-message.test.ts',
  'test/api/pure.test.ts',
  'test/cli/skip-lines.test.ts',
  'test/cli/timeline-options.test.ts',
  'test/electron/notices.test.ts',
  'test/ipc/rate-limited-view.test.ts',
  'test/ipc/recipe-list.test.ts',
  'test/ipc/recipe-view.test.ts',
  'test/ipc/timeline-settings.test.ts',
  'test/ipc/usage-csv.test.ts',
  'test/ipc/usage-currency.test.ts',
  'test/renderer/state/app.test.ts',
  'test/renderer/state/queue-add.test.ts',
  'test/renderer/state/queue-selection.test.ts',
  'test/renderer/state/review-request.test.ts',
  'test/renderer/state/review.test.ts',
  'test/renderer/state/selects.test.ts',
  'test/renderer/state/string-out-rows.test.ts',
  'test/renderer/state/shuttle.test.ts',
];

/**
 * Tests of pure writers that read their output back with outside tools (xmllint, OpenTimelineIO,
 * ffmpeg): child processes, so integration.
 */
const ENGINE_WITH_TOOLS = [
  'test/engine/captions/editors/all-rates.test.ts',
  'test/engine/captions/editors/writers.test.ts',
  'test/engine/recipes/ffmetadata-ffmpeg.test.ts',
  'test/engine/selects/spacers-readback.test.ts',
];

export const TIERS = {
  unit: {
    include: [
      'test/engine/**/*.test.ts',
      'test/common/**/*.test.ts',
      'test/architecture/**/*.test.ts',
      'test/renderer/*.test.ts',
      ...PURE_FILES,
    ],
    exclude: ENGINE_WITH_TOOLS,
  },
  integration: {
    include: [
      'test/adapters/**/*.test.ts',
      'test/api/**/*.test.ts',
      'test/cli/**/*.test.ts',
      'test/electron/**/*.test.ts',
      'test/ipc/**/*.test.ts',
      'test/media/**/*.test.ts',
      'test/renderer/state/**/*.test.ts',
      'test/runtime/**/*.test.ts',
      'test/sandbox/**/*.test.ts',
      ...ENGINE_WITH_TOOLS,
    ],
    exclude: PURE_FILES,
  },
  packaging: {
    include: ['test/packaging/**/*.test.ts'],
    exclude: [] as string[],
  },
} as const;

export type TierName = keyof typeof TIERS;

/**
 * Test files that each load modules of their own; the rest of a tier share their worker's loaded
 * modules, file after file (vitest.config.ts), which halves the integration tier's CPU. The
 * renderer's files drive app-wide singletons (`app`, the bridge), and a file that stands in for a
 * module with `vi.mock` must not hand its stand-in to the next file (test/architecture/tiers.test.ts
 * holds every such file to this list). Files that change `process.env` or spy on `fs` put it back
 * after each test, so they share.
 */
export const OWN_MODULES = ['test/renderer/**', 'test/electron/shell.test.ts', 'test/electron/security.test.ts'];

/** Whether `file` (a path from the project's root, `test/...`) runs in tier `name`. */
export const inTier = (name: TierName, file: string): boolean =>
  picomatch.isMatch(file, [...TIERS[name].include]) && !picomatch.isMatch(file, [...TIERS[name].exclude]);

export const hasOwnModules = (file: string): boolean => picomatch.isMatch(file, OWN_MODULES);

/** Every vitest file of the project (`test/...`, the browser flows aside), in a stable order. */
export function testFiles(root: string, dir = 'test'): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) return p === 'test/e2e' ? [] : testFiles(root, p);
      return e.name.endsWith('.test.ts') ? [p] : [];
    });
}

/**
 * The files that take longest, slowest first (from the whole runs' test-results/durations.json):
 * they start before the rest, so none of them starts last and runs alone while the other workers
 * have nothing left to do. A fresh clone (CI, the README's command) has no vitest cache to order
 * the files by; vitest.config.ts puts these first either way.
 */
export const SLOW_FIRST = [
  'test/packaging/asar.test.ts',
  'test/cli/readme.test.ts',
  'test/cli/team-mode.test.ts',
  'test/cli/selects.test.ts',
  'test/cli/kill.test.ts',
  'test/runtime/upload-speed.test.ts',
  'test/cli/editor-notes.test.ts',
  'test/adapters/store/archive/job-archive-crash.test.ts',
  'test/adapters/store/journal/job-store-crash.test.ts',
  'test/runtime/share-offline.test.ts',
  'test/runtime/stalled-copy.test.ts',
  'test/cli/process-recipe.test.ts',
  'test/runtime/resilience.test.ts',
  'test/runtime/batch.test.ts',
  'test/adapters/watch/folder/folder-watcher.test.ts',
  'test/api/large-upload.test.ts',
  'test/cli/sandbox-env.test.ts',
  'test/adapters/watch/folder/folder-watcher-perf.test.ts',
  'test/cli/tables.test.ts',
  'test/cli/process-links.test.ts',
];
