// Builds the renderer and the main process, then starts `sluice serve` (embedded sandbox) and a second
// stand-alone sandbox on free ports with a throw-away state dir. Tests read the addresses from the environment.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, startServe } from './server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function build(label: string, args: string[]): void {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${label} failed (exit ${r.status})`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!process.env.SLUICE_E2E_SKIP_BUILD) {
    build('vite build', [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'renderer/vite.config.ts',
      '--logLevel',
      'warn',
    ]);
    build('tsc (main)', [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.main.json']);
    build('the CLI build', [path.join(root, 'scripts/bundle-cli.js')]);
  }
  mkdirSync(path.join(root, 'test-results/screenshots'), { recursive: true });
  // The screens as they were before the editor review's fixes sit next to today's, for comparison.
  cpSync(path.join(root, 'test/e2e/before'), path.join(root, 'test-results/screenshots/before'), { recursive: true });
  const stateDir = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-state-'));
  const workDir = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-work-'));
  // A second, stand-alone sandbox: the "Custom" connection points at it, where the wrong key from
  // the environment makes the service answer with its own error.
  const sandbox = start(['bin/sluice.js', 'sandbox', '--port', '0'], /listening on (\S+)/, {});
  const [sandboxUrl, serve] = await Promise.all([sandbox.url, startServe(stateDir)]);
  process.env.SLUICE_E2E_URL = serve.url;
  process.env.SLUICE_E2E_SANDBOX = sandboxUrl;
  // The serve process's own (embedded) sandbox: History tests add streams there that Sluice did
  // not start, as another tool on the same account would.
  process.env.SLUICE_E2E_EMBEDDED = serve.embedded;
  process.env.SLUICE_E2E_STATE = stateDir;
  process.env.SLUICE_E2E_WORK = workDir;

  return async () => {
    for (const child of [serve.child, sandbox.child]) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    for (const child of [serve.child, sandbox.child]) if (child.exitCode === null) child.kill('SIGKILL');
    // What the server said, for a failure that comes from it (a crash shows up as refused connections).
    writeFileSync(path.join(root, 'test-results/e2e-serve.log'), serve.output());
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  };
}
