// Builds the renderer and the main process, then starts `sluice serve` (embedded sandbox) and a second
// stand-alone sandbox on free ports with a throw-away state dir. Tests read the addresses from the environment.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function build(label: string, args: string[]): void {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${label} failed (exit ${r.status})`);
}

function start(
  args: string[],
  ready: RegExp,
  env: Record<string, string>,
): { child: ChildProcess; url: Promise<string>; output: () => string } {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[1]} did not start:\n${out}`)), 30_000);
    const onData = (d: Buffer): void => {
      out += d.toString();
      const m = ready.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args[1]} exited with ${code}:\n${out}`)));
  });
  return { child, url, output: () => out };
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
  }
  mkdirSync(path.join(root, 'test-results/screenshots'), { recursive: true });
  // The screens as they were before the editor review's fixes sit next to today's, for comparison.
  cpSync(path.join(root, 'test/e2e/before'), path.join(root, 'test-results/screenshots/before'), { recursive: true });
  const stateDir = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-state-'));
  const workDir = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-work-'));
  // A second, stand-alone sandbox: the "Custom" connection points at it, where the wrong key from
  // the environment makes the service answer with its own error.
  const sandbox = start(['bin/sluice.js', 'sandbox', '--port', '0'], /listening on (\S+)/, {});
  // Default settings use the embedded sandbox, which brings its own key; any other connection
  // uses SLUICE_API_KEY, deliberately wrong here.
  const serve = start(['bin/sluice.js', 'serve', '--state-dir', stateDir], /running at (\S+)/, {
    SLUICE_API_KEY: 'wrong-key-0000',
    SLUICE_CLIENT_ID: '',
  });
  const [sandboxUrl, url] = await Promise.all([sandbox.url, serve.url]);
  process.env.SLUICE_E2E_URL = url;
  process.env.SLUICE_E2E_SANDBOX = sandboxUrl;
  // The serve process's own (embedded) sandbox: History tests add streams there that Sluice did
  // not start, as another tool on the same account would.
  const embedded = /embedded sandbox at (http:\/\/\S+)/.exec(serve.output())?.[1];
  if (!embedded) throw new Error(`sluice serve did not print its sandbox address:\n${serve.output()}`);
  process.env.SLUICE_E2E_EMBEDDED = embedded;
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
