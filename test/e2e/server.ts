// Starting `sluice serve` (or the stand-alone sandbox) for the flows: the one every spec shares,
// started by global-setup.ts, and a spec's own where it must find a first start (helpers.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function start(
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

/** `sluice serve` on a state folder of its own, as the flows use it: its address and its embedded sandbox's. */
export async function startServe(
  stateDir: string,
): Promise<{ child: ChildProcess; url: string; embedded: string; output: () => string }> {
  // Default settings use the embedded sandbox, which brings its own key; any other connection
  // uses SLUICE_API_KEY, deliberately wrong here.
  const serve = start(['bin/sluice.js', 'serve', '--state-dir', stateDir], /running at (\S+)/, {
    SLUICE_API_KEY: 'wrong-key-0000',
    SLUICE_CLIENT_ID: '',
  });
  const url = await serve.url;
  const embedded = /embedded sandbox at (http:\/\/\S+)/.exec(serve.output())?.[1];
  if (!embedded) throw new Error(`sluice serve did not print its sandbox address:\n${serve.output()}`);
  return { child: serve.child, url, embedded, output: serve.output };
}
