// Restarting `sluice serve` in a spec: the serve/stop/free-port helpers every restart flow uses (a
// tab across a restart, a new link, a pause kept), and a `sluice serve` of a spec's own that the
// spec stops and starts again on the same state folder and port (an editor quitting and opening
// Sluice), talking to a stand-alone sandbox that outlives the restarts: the embedded sandbox starts
// empty with each `sluice serve`, so what the service holds across restarts (streams billed) is only
// countable at one that stays.
import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { bridge, pointAt } from './helpers.js';
import { start } from './server.js';

/** The stand-alone sandbox's own key. */
export const SANDBOX_KEY = 'sandbox-key';

/** A loopback port free at the time of asking, for a `sluice serve` that must come back on the same one. */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** A `sluice serve` started by `serve`: its process, its printed link and what it said. */
export interface Serving {
  child: ChildProcess;
  /** The link it printed, token included; rejects when it exits or says nothing for 30 s. */
  link: Promise<string>;
  output(): string;
}

/**
 * `sluice serve` on a state folder, on the embedded sandbox whatever the environment holds, on
 * `port` when given (a restart on the same address), with `args` added (`--new-token`).
 */
export function serve(stateDir: string, o: { port?: number; args?: string[] } = {}): Serving {
  const s = start(
    [
      'bin/sluice.js',
      'serve',
      '--state-dir',
      stateDir,
      '--sandbox',
      ...(o.port ? ['--port', String(o.port)] : []),
      ...(o.args ?? []),
    ],
    /running at (\S+#token=\S+)/,
    { SLUICE_API_KEY: '' },
  );
  return { child: s.child, link: s.url, output: s.output };
}

/** Stops a process as a quit or a reboot does (SIGTERM) and waits for its exit; SIGKILL after 15 s. */
export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGKILL');
  await exited;
}

export class RestartableServe {
  private serve: ChildProcess | undefined;
  private sandbox: ChildProcess | undefined;
  private port = 0;
  /** The stand-alone sandbox's address. */
  sandboxUrl = '';

  constructor(private readonly state: string) {}

  /** Starts the sandbox and `sluice serve`, and points Sluice's connection at the sandbox. */
  async open(sandboxArgs: string[] = []): Promise<string> {
    this.port = await freePort();
    const sb = start(['bin/sluice.js', 'sandbox', '--port', '0', ...sandboxArgs], /listening on (\S+)/, {});
    this.sandbox = sb.child;
    this.sandboxUrl = await sb.url;
    const url = await this.startServe();
    await bridge('settings:update', {
      patch: { connection: { mode: 'custom', auth: 'apiKey', baseUrl: this.sandboxUrl, urls: {} } },
    });
    return url;
  }

  /** Stops `sluice serve` (SIGTERM, as a quit or a reboot does) and starts it again: its new link. */
  async restart(between?: () => void | Promise<void>): Promise<string> {
    await stop(this.serve);
    await between?.();
    return this.startServe();
  }

  async close(): Promise<void> {
    await stop(this.serve);
    await stop(this.sandbox);
    pointAt(undefined);
  }

  /** `sluice serve` on the state folder and port, with the sandbox's key; the helpers talk to it. */
  private async startServe(): Promise<string> {
    const s = start(
      ['bin/sluice.js', 'serve', '--state-dir', this.state, '--port', String(this.port)],
      /running at (\S+)/,
      { SLUICE_API_KEY: SANDBOX_KEY, SLUICE_CLIENT_ID: '' },
    );
    this.serve = s.child;
    const url = await s.url;
    pointAt({ url, state: this.state });
    return url;
  }
}
