#!/usr/bin/env node
// The project's one test command (`npm test`): the build, then the static checks beside the unit
// tier, then the integration tier and the packaging tests, the integration tier again under
// Electron's Node when given, and the browser flows; one closing line `N passed, N failed, N skipped` sums all of them
// (CI reads that line, not the runners' own summaries). Per-file durations of the run go to
// test-results/durations.json, and the slowest 20 are printed before the closing line.
//
// Environment:
//   SLUICE_EXTRA_NODE=/path/to/node   also run the integration tier under that Node (CI: Node 24, Electron's)
//   SLUICE_TEST_SKIP_CHECKS=1          skip lint/format/type checks (quick local runs)
//   SLUICE_TEST_WORKERS, SLUICE_E2E_WORKERS   test files (browser specs) run at once
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'test-results');
mkdirSync(outDir, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** Every test file's wall time in this run: `{ runner, file, seconds }`. */
const durations = [];
/** Every step's wall time, for the table at the end. */
const steps = [];

/**
 * Runs a command. `quiet` keeps its output until it ends and prints it in one piece (a step that
 * runs beside another), so two steps' lines never interleave.
 */
function run(label, cmd, args, opts = {}) {
  const started = Date.now();
  if (!opts.quiet) console.log(`\n▶ ${label}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: opts.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...opts.env },
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const done = (code) => {
      const secs = (Date.now() - started) / 1000;
      steps.push({ label, seconds: secs });
      if (opts.quiet) process.stdout.write(`\n▶ ${label}\n${output}`);
      console.log(`◀ ${label}: exit ${code} in ${secs.toFixed(1)} s`);
      resolve(code === 0);
    };
    child.on('error', (e) => {
      output += `${e.message}\n`;
      done(e.message);
    });
    child.on('close', (code, signal) => done(code ?? signal));
  });
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
async function check(label, cmd, args) {
  if (await run(label, cmd, args, { quiet: true })) totals.passed += 1;
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
  const has = (tool) =>
    process.env.PATH?.split(path.delimiter).some((dir) => existsSync(path.join(dir, tool))) ?? false;
  if (process.env.DBUS_SESSION_BUS_ADDRESS || !has('dbus-run-session') || !has('gnome-keyring-daemon')) {
    return [cmd, args];
  }
  const script =
    'echo -n sluice-test | XDG_DATA_HOME="$(mktemp -d)" gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "$@"';
  return ['dbus-run-session', ['--', 'sh', '-c', script, 'sh', cmd, ...args]];
}

/** One vitest run of the given tiers (test/tiers.ts) under `node`. */
async function vitest(label, node, tiers, opts = {}) {
  const report = path.join(outDir, `vitest-${label.replace(/\W+/g, '-')}.json`);
  rmSync(report, { force: true });
  const failedBefore = totals.failed;
  const ok = await run(
    `vitest ${label}`,
    ...withSecretService(node, [
      path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      // A tier is up to two vitest projects (vitest.config.ts): `<tier>*` names both.
      ...tiers.flatMap((t) => ['--project', `${t}*`]),
      `--reporter=${opts.quiet ? 'dot' : 'default'}`,
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...(opts.files ?? []),
    ]),
    opts,
  );
  if (!existsSync(report)) {
    totals.failed += 1;
    failures.push(`vitest ${label} produced no report`);
    return;
  }
  const r = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + r.numTodoTests;
  for (const file of r.testResults) {
    const rel = path.relative(root, file.name);
    if (file.endTime && file.startTime) {
      durations.push({ runner: `vitest ${label}`, file: rel, seconds: (file.endTime - file.startTime) / 1000 });
    }
    const failedTests = file.assertionResults.filter((a) => a.status === 'failed');
    for (const a of failedTests) {
      failures.push(`${label}: ${rel} › ${a.fullName}${reason(a.failureMessages?.[0])}`);
    }
    // A file that failed to load has no failed test of its own: count it once.
    if (file.status === 'failed' && failedTests.length === 0) {
      totals.failed += 1;
      failures.push(`${label}: ${rel} (failed to load: ${file.message ?? 'see above'})`);
    }
  }
  failedWithoutFailures(`vitest ${label}`, ok, failedBefore);
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
async function playwright(files = []) {
  const report = path.join(outDir, 'playwright.json');
  rmSync(report, { force: true });
  const failedBefore = totals.failed;
  const ok = await run('playwright (e2e)', bin('playwright'), [
    'test',
    '-c',
    'test/e2e/playwright.config.ts',
    ...files,
  ]);
  if (!existsSync(report)) {
    totals.failed += 1;
    failures.push('playwright produced no report');
    return;
  }
  const { stats, suites = [], errors = [] } = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  const perFile = new Map();
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      if (!spec.ok) failures.push(`playwright: ${spec.file} › ${spec.title}`);
      const ms = spec.tests.flatMap((t) => t.results).reduce((sum, res) => sum + (res.duration ?? 0), 0);
      const file = path.join('test/e2e', spec.file);
      perFile.set(file, (perFile.get(file) ?? 0) + ms / 1000);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  suites.forEach(walk);
  for (const [file, seconds] of perFile) durations.push({ runner: 'playwright', file, seconds });
  failedWithoutFailures('playwright', ok, failedBefore, reason(errors[0]?.message));
}

/**
 * The static checks, in two chains that share the machine with the unit tier: the tests' type
 * check (the longest) leads one; the other waits for `first` (the unit tier, in the whole run)
 * and then lints. Each check runs alone on a core, and no core waits while the other works.
 */
async function checks(first = Promise.resolve()) {
  if (process.env.SLUICE_TEST_SKIP_CHECKS) return first;
  const chain = async (steps) => {
    for (const [label, cmd, args] of steps) await check(label, cmd, args);
  };
  await Promise.all([
    chain([
      ['type-check (tests)', bin('tsc'), ['-p', 'tsconfig.test.json', '--noEmit']],
      [
        'type-check (renderer, svelte-check)',
        bin('svelte-check'),
        ['--workspace', 'renderer', '--tsconfig', './tsconfig.json', '--fail-on-warnings'],
      ],
      ['format (prettier)', bin('prettier'), ['--check', '.']],
    ]),
    first.then(() =>
      chain([
        ['type-check (preload, against electron)', bin('tsc'), ['-p', 'tsconfig.preload.json']],
        ['type-check (renderer state tests, DOM)', bin('tsc'), ['-p', 'tsconfig.renderer-test.json']],
        ['lint (eslint, zero warnings)', bin('eslint'), ['--max-warnings=0', '.']],
      ]),
    ),
  ]);
}

/** The newest modification time under these paths (files and folders: a deleted file changes its folder's). */
function newest(paths) {
  let latest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    latest = Math.max(latest, st.mtimeMs);
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  for (const p of paths) visit(path.join(root, p));
  return latest;
}

/**
 * A build is current when its output was written after every file it is made from changed: after
 * `npm ci`, whose `prepare` builds everything, the test command does not build it all again.
 */
function current(output, sources) {
  const out = path.join(root, output);
  return existsSync(out) && statSync(out).mtimeMs > newest(sources);
}

const CONFIGS = ['package-lock.json', 'tsconfig.base.json'];
/** What each build is made from: main (and the CLI bundle, made from main's output), and the renderer. */
const MAIN_SOURCES = [
  'main',
  'common',
  'preload/contract.ts',
  'preload/labels.ts',
  'tsconfig.main.json',
  'scripts/bundle-cli.js',
  ...CONFIGS,
];
const RENDERER_SOURCES = ['renderer', 'common', 'preload', ...CONFIGS];

function extraNode() {
  const extra = process.env.SLUICE_EXTRA_NODE;
  if (!extra) return undefined;
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(extra, ['--version']);
    child.stdout.on('data', (d) => (out += d));
    child.on('error', () => resolve({ path: extra, version: extra }));
    // A Node that does not start leaves no report, which counts as a failure.
    child.on('close', () => resolve({ path: extra, version: out.trim().replace(/^v/, '') || extra }));
  });
}

const began = Date.now();
const here = `node ${process.versions.node}`;
/**
 * `node scripts/test.js TIER [FILE...]` runs one tier alone (npm run test:unit, test:integration...),
 * or only the given files of it.
 */
const only = process.argv[2];
const files = process.argv.slice(3);
const TIERS = ['unit', 'integration', 'packaging', 'e2e', 'checks'];
if (only && !TIERS.includes(only)) {
  console.error(`Unknown tier "${only}": give one of ${TIERS.join(', ')}, or nothing for all of them.`);
  process.exit(2);
}
// One run folder for every tier (helpers/run-folder.ts): the media the tests make alike are made
// once for the whole command, not again by each tier and each Node; removed when the command ends.
const RUN_FOLDER_ENV = 'SLUICE_TEST_RUN_FOLDER';
const ownRunFolder = !process.env[RUN_FOLDER_ENV];
process.env[RUN_FOLDER_ENV] ??= mkdtempSync(path.join(tmpdir(), 'sluice-test-run-'));

if (only === 'unit') await vitest(`unit (${here})`, process.execPath, ['unit'], { files });
else if (only === 'checks') await checks();
else {
  // The build first: the CLI tests and the browser flows run what it writes, and none of them
  // builds it again (SLUICE_TEST_BUILT), so no test rewrites dist/ while another runs it.
  if (current('dist/cli/sluice.js', MAIN_SOURCES) && current('dist/main/index.js', MAIN_SOURCES)) {
    console.log('\n▶ build (main, the CLI bundle): current, written after every change to their sources');
  } else {
    await check('build (tsc, main)', bin('tsc'), ['-p', 'tsconfig.main.json']);
    await check('build (the CLI bundle)', process.execPath, [path.join(root, 'scripts/bundle-cli.js')]);
  }
  // The browser flows' set-up builds the renderer unless it is current (test/e2e/global-setup.ts).
  if (current('dist/renderer/index.html', RENDERER_SOURCES)) process.env.SLUICE_E2E_SKIP_BUILD ??= '1';
  process.env.SLUICE_TEST_BUILT = '1';
  if (only === 'integration' || only === 'packaging') {
    await vitest(`${only} (${here})`, process.execPath, [only], { files });
  } else if (only === 'e2e') await playwright(files);
  else {
    // The checks and the unit tier share the machine: the unit tier leads the second chain of checks.
    await checks(vitest(`unit (${here})`, process.execPath, ['unit'], { quiet: true }));
    await vitest(`integration and packaging (${here})`, process.execPath, ['integration', 'packaging']);
    // Electron's Node: what the Node version can change (files, watchers, processes, HTTP, SQLite,
    // keytar) is the integration tier; pure code gives the same answers under any Node. (Run beside
    // the browser flows it saved 97 s of 1,109, but the load broke timing on both sides: one after
    // the other.)
    const extra = await extraNode();
    if (extra) await vitest(`integration (node ${extra.version})`, extra.path, ['integration']);
    await playwright();
  }
}

durations.sort((a, b) => b.seconds - a.seconds);
writeFileSync(
  path.join(outDir, only ? `durations-${only}.json` : 'durations.json'),
  `${JSON.stringify({ total: (Date.now() - began) / 1000, steps, files: durations }, null, 1)}\n`,
);
console.log('\nSlowest test files (test-results/durations.json has them all):');
for (const d of durations.slice(0, 20)) {
  console.log(`  ${d.seconds.toFixed(1).padStart(7)} s  ${d.file}  (${d.runner})`);
}
console.log('\nSteps:');
for (const s of steps) console.log(`  ${s.seconds.toFixed(1).padStart(7)} s  ${s.label}`);
console.log(`  ${((Date.now() - began) / 1000).toFixed(1).padStart(7)} s  in all`);

if (failures.length) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  ✗ ${f}`);
}
if (ownRunFolder) rmSync(process.env[RUN_FOLDER_ENV], { recursive: true, force: true });
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
