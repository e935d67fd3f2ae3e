// Builds the renderer and the main process (once for all workers), then starts, for each worker,
// `sluice serve` (embedded sandbox) and a second stand-alone sandbox on free ports with throw-away
// state and work folders. Tests read their worker's addresses from the environment (helpers.ts).
import { spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_FOLDER_ENV } from '../helpers/run-folder.js';
import { E2E_WORKERS } from './workers.js';
import { start, startServe } from './server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function build(label: string, args: string[]): void {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${label} failed (exit ${r.status})`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  // The sandboxes process a minute of media in 0.6 s (their default is 3 s): the flows that read
  // a long transcript wait less. A flow that needs a job still at work gives it an hour of media.
  process.env.SLUICE_SANDBOX_SPEED_FACTOR ??= '0.01';
  if (!process.env.SLUICE_E2E_SKIP_BUILD) {
    build('vite build', [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'renderer/vite.config.ts',
      '--logLevel',
      'warn',
    ]);
    // `npm test` built main and the CLI before the suites (scripts/test.js): once is enough.
    if (!process.env.SLUICE_TEST_BUILT) {
      build('tsc (main)', [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.main.json']);
      build('the CLI build', [path.join(root, 'scripts/bundle-cli.js')]);
    }
  }
  // The run's folder (helpers/run-folder.ts): media the flows make alike is encoded once (helpers/media.ts).
  const ownRunFolder = !process.env[RUN_FOLDER_ENV];
  const runFolder = process.env[RUN_FOLDER_ENV] ?? mkdtempSync(path.join(tmpdir(), 'sluice-e2e-run-'));
  process.env[RUN_FOLDER_ENV] = runFolder;
  mkdirSync(path.join(root, 'test-results/screenshots'), { recursive: true });
  // The screens as they were before the editor review's fixes sit next to today's, for comparison.
  cpSync(path.join(root, 'test/e2e/before'), path.join(root, 'test-results/screenshots/before'), { recursive: true });
  // One server per worker (each with its own state and work folders, and its own stand-alone
  // sandbox), so parallel specs never meet; helpers.ts picks the one of its worker.
  const servers = await Promise.all(Array.from({ length: E2E_WORKERS }, () => startWorkerServers()));
  for (const [key, pick] of Object.entries(PICKS)) {
    process.env[key] = JSON.stringify(servers.map(pick));
  }

  return async () => {
    const children = servers.flatMap((s) => [s.serve.child, s.sandbox.child]);
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => exited(c, 2_000)));
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    // What the servers said, for a failure that comes from one (a crash shows up as refused connections).
    servers.forEach((s, i) => writeFileSync(path.join(root, `test-results/e2e-serve-${i}.log`), s.serve.output()));
    for (const s of servers) {
      rmSync(s.stateDir, { recursive: true, force: true });
      rmSync(s.workDir, { recursive: true, force: true });
    }
    if (ownRunFolder) rmSync(runFolder, { recursive: true, force: true });
  };
}

interface WorkerServers {
  serve: Awaited<ReturnType<typeof startServe>>;
  sandbox: ReturnType<typeof start>;
  sandboxUrl: string;
  stateDir: string;
  workDir: string;
}

/** Where each worker's addresses and folders reach the specs: an environment variable holding one per worker. */
const PICKS: Record<string, (s: WorkerServers) => string> = {
  SLUICE_E2E_URL: (s) => s.serve.url,
  SLUICE_E2E_SANDBOX: (s) => s.sandboxUrl,
  // The serve process's own (embedded) sandbox: History tests add streams there that Sluice did
  // not start, as another tool on the same account would.
  SLUICE_E2E_EMBEDDED: (s) => s.serve.embedded,
  SLUICE_E2E_STATE: (s) => s.stateDir,
  SLUICE_E2E_WORK: (s) => s.workDir,
};

async function startWorkerServers(): Promise<WorkerServers> {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-state-'));
  const workDir = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-work-'));
  // A second, stand-alone sandbox: the "Custom" connection points at it, where the wrong key from
  // the environment makes the service answer with its own error.
  const sandbox = start(['bin/sluice.js', 'sandbox', '--port', '0'], /listening on (\S+)/, {});
  const [sandboxUrl, serve] = await Promise.all([sandbox.url, startServe(stateDir)]);
  return { serve, sandbox, sandboxUrl, stateDir, workDir };
}

function exited(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
