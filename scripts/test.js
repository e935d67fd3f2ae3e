#!/usr/bin/env node
// The project's one test command (`npm test`): static checks, then every suite, then one closing
// line `N passed, N failed` summing all of them (CI reads that line, not the runners' own summaries).
//
// Environment:
//   SLUICE_EXTRA_NODE=/path/to/node   also run the vitest suites under that Node (CI: Node 24, Electron's)
//   SLUICE_TEST_SKIP_CHECKS=1          skip lint/format/type checks (quick local runs)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'test-results');
mkdirSync(outDir, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(label, cmd, args, opts = {}) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...opts.env } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`◀ ${label}: exit ${r.status ?? r.signal} in ${secs} s`);
  return r.status === 0;
}

/**
 * A runner that exits non-zero must fail the run even when its report counts no failed test
 * (vitest's unhandled errors, Playwright's global set-up): one failure for the runner itself.
 */
function failedWithoutFailures(label, exitedOk, failedBefore, detail = '') {
  if (exitedOk || totals.failed > failedBefore) return;
  totals.failed += 1;
  failures.push(`${label} exited with an error but reported no failed test${detail || ' (see above)'}`);
}

/** A check that is not a test runner counts as one test. */
function check(label, cmd, args) {
  if (run(label, cmd, args)) totals.passed += 1;
  else {
    totals.failed += 1;
    failures.push(label);
  }
}

/**
 * The keytar test needs a real Secret Service: when none is running but the tools are installed,
 * run the suites inside a private D-Bus session with a freshly unlocked gnome-keyring (its keyring
 * files in a temp dir, so the user's own keyring is never touched).
 */
function withSecretService(cmd, args) {
  const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
  if (process.env.DBUS_SESSION_BUS_ADDRESS || !has('dbus-run-session') || !has('gnome-keyring-daemon')) {
    return [cmd, args];
  }
  const script =
    'echo -n sluice-test | XDG_DATA_HOME="$(mktemp -d)" gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "$@"';
  return ['dbus-run-session', ['--', 'sh', '-c', script, 'sh', cmd, ...args]];
}

function vitest(label, node, extraArgs = []) {
  const report = path.join(outDir, `vitest-${label.replace(/\W+/g, '-')}.json`);
  rmSync(report, { force: true });
  const failedBefore = totals.failed;
  const ok = run(
    `vitest (${label})`,
    ...withSecretService(node, [
      path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...extraArgs,
    ]),
  );
  if (!existsSync(report)) {
    totals.failed += 1;
    failures.push(`vitest (${label}) produced no report`);
    return;
  }
  const r = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + r.numTodoTests;
  for (const file of r.testResults) {
    const failedTests = file.assertionResults.filter((a) => a.status === 'failed');
    for (const a of failedTests) {
      failures.push(`${label}: ${path.relative(root, file.name)} › ${a.fullName}${reason(a.failureMessages?.[0])}`);
    }
    // A file that failed to load has no failed test of its own: count it once.
    if (file.status === 'failed' && failedTests.length === 0) {
      totals.failed += 1;
      failures.push(`${label}: ${path.relative(root, file.name)} (failed to load: ${file.message ?? 'see above'})`);
    }
  }
  failedWithoutFailures(`vitest (${label})`, ok, failedBefore);
}

/** The first lines of a failure, so the closing summary says why without scrolling back. */
function reason(message) {
  if (!message) return '';
  // eslint-disable-next-line no-control-regex
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() && !/^\s+at /.test(l))
    .slice(0, 20);
  return lines.length ? `\n      ${lines.join('\n      ')}` : '';
}

/** Browser flows (test/e2e): Debian Chromium against the built renderer, `sluice serve` and the sandbox. */
function playwright() {
  const report = path.join(outDir, 'playwright.json');
  rmSync(report, { force: true });
  const failedBefore = totals.failed;
  const ok = run('playwright (e2e)', bin('playwright'), ['test', '-c', 'test/e2e/playwright.config.ts']);
  if (!existsSync(report)) {
    totals.failed += 1;
    failures.push('playwright produced no report');
    return;
  }
  const { stats, suites = [], errors = [] } = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) if (!spec.ok) failures.push(`playwright: ${spec.file} › ${spec.title}`);
    for (const child of suite.suites ?? []) walk(child);
  };
  suites.forEach(walk);
  failedWithoutFailures('playwright', ok, failedBefore, reason(errors[0]?.message));
}

check('build (tsc, main)', bin('tsc'), ['-p', 'tsconfig.main.json']);
if (!process.env.SLUICE_TEST_SKIP_CHECKS) {
  check('type-check (tests)', bin('tsc'), ['-p', 'tsconfig.test.json', '--noEmit']);
  check('type-check (preload, against electron)', bin('tsc'), ['-p', 'tsconfig.preload.json']);
  check('type-check (renderer state tests, DOM)', bin('tsc'), ['-p', 'tsconfig.renderer-test.json']);
  check('type-check (renderer, svelte-check)', bin('svelte-check'), [
    '--workspace',
    'renderer',
    '--tsconfig',
    './tsconfig.json',
    '--fail-on-warnings',
  ]);
  check('lint (eslint, zero warnings)', bin('eslint'), ['--max-warnings=0', '.']);
  check('format (prettier)', bin('prettier'), ['--check', '.']);
}

vitest(`node ${process.versions.node}`, process.execPath);

const extra = process.env.SLUICE_EXTRA_NODE;
if (extra) {
  // A Node that does not start leaves no report, which counts as a failure.
  const v = spawnSync(extra, ['--version'], { encoding: 'utf8' }).stdout?.trim().replace(/^v/, '');
  vitest(`node ${v || extra}`, extra);
}

playwright();

if (failures.length) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  ✗ ${f}`);
}
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
