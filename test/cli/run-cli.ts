// Runs the built `sluice` (bin/sluice.js) as a child process: to the end, or until its output
// shows a line, then stopped with SIGTERM.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RUN_FOLDER_ENV } from '../helpers/run-folder.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SLUICE = path.join(ROOT, 'bin/sluice.js');

/** Set by `npm test` (scripts/test.js), which builds main and the CLI before any test runs. */
export const BUILT_ENV = 'SLUICE_TEST_BUILT';

/**
 * The CLI runs from its one-file build of the compiled output; make sure both are current. Built
 * once per run: the test command builds before the suites start; a run of vitest alone has its
 * first file build while the others wait, so no file rewrites `dist/` under another's feet.
 */
export function buildCli(): void {
  if (process.env[BUILT_ENV]) return;
  const run = process.env[RUN_FOLDER_ENV];
  if (!run) return build();
  const done = path.join(run, 'cli-built');
  try {
    mkdirSync(path.join(run, 'cli-building'));
  } catch {
    return waitForBuild(done);
  }
  try {
    build();
    writeFileSync(done, '');
  } catch (e) {
    writeFileSync(done, String(e));
    throw e;
  }
}

function build(): void {
  execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.main.json'], { cwd: ROOT });
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/bundle-cli.js')], { cwd: ROOT });
}

/** Waits (blocking: a hook that builds blocks too) for another file's build of this run. */
function waitForBuild(done: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; !existsSync(done); waited += 100) {
    if (waited > 600_000) throw new Error('The CLI build of another test file did not finish in 10 minutes.');
    Atomics.wait(pause, 0, 0, 100);
  }
  const failed = readFileSync(done, 'utf8');
  if (failed) throw new Error(`The CLI build failed in another test file: ${failed}`);
}

/** Without an API key or configured connection, so the embedded sandbox is used. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('SLUICE_') && k !== 'COLUMNS') env[k] = v;
  }
  return { ...env, ...extra };
}

export interface CliLine {
  text: string;
  /** ms since the start of the run */
  at: number;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout then stderr, for failure messages */
  out: string;
  /** stdout lines with the time each arrived */
  lines: CliLine[];
}

export interface RunningCli {
  /** Resolves with everything printed so far once `pattern` matches it. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when the command exits by itself. */
  exited: Promise<CliResult>;
  stop(): Promise<CliResult>;
}

export function startCli(args: string[], env: Record<string, string> = {}, cwd = ROOT): RunningCli {
  const started = Date.now();
  const child = spawn(process.execPath, [SLUICE, ...args], {
    env: cleanEnv(env),
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let partial = '';
  const lines: CliLine[] = [];
  const listeners = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    partial += d.toString();
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const text of parts) lines.push({ text, at: Date.now() - started });
    for (const l of listeners) l();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const l of listeners) l();
  });
  const exited = new Promise<CliResult>((resolve) => {
    child.on('exit', (code) => {
      if (partial) lines.push({ text: partial, at: Date.now() - started });
      for (const l of listeners) l();
      resolve({ code, stdout, stderr, out: `${stdout}${stderr}`, lines });
    });
  });
  let done = false;
  void exited.then(() => (done = true));
  return {
    waitFor: (pattern, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const all = `${stdout}${stderr}`;
          if (pattern.test(all)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(all);
          } else if (done) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`sluice ${args.join(' ')} exited before printing ${pattern}:\n${all}`));
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${stdout}${stderr}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    exited,
    stop: () => {
      if (!done) {
        child.kill('SIGTERM');
        // A command that ignores SIGTERM must not outlive the test.
        setTimeout(() => done || child.kill('SIGKILL'), 10_000).unref();
      }
      return exited;
    },
  };
}

/** Runs to the end; a command still running after `timeoutMs` is stopped, so no test leaves it behind. */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
  timeoutMs = 25_000,
): Promise<CliResult> {
  const running = startCli(args, env, cwd);
  const timer = setTimeout(() => void running.stop(), timeoutMs);
  try {
    return await running.exited;
  } finally {
    clearTimeout(timer);
  }
}
