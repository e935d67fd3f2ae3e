// `sluice serve`: the app in a browser, for machines without Electron. Runs the queue and the watch
// folders like the desktop app and serves the interface plus the web bridge on loopback.
import type { Command } from 'commander';
import path from 'node:path';
import { startWebBridge } from '../../ipc/web/web-bridge.js';
import { keytarVault } from '../../adapters/store/secrets/secret-vault.js';
import { webAccessToken } from '../../adapters/store/state/web-token.js';
import { hasDesktop, openWithSystem } from '../../ipc/web/system-open.js';
import { webPlatform } from '../../ipc/web/web-platform.js';
import { addCommonOptions, openRuntime, type CommonFlags } from '../context.js';
import { parsePositiveInt } from '../options.js';
import { packagePath, packageVersion } from '../package-root.js';

interface ServeFlags extends CommonFlags {
  port?: number;
  host?: string;
  allowRemote?: boolean;
  open?: boolean;
  newToken?: boolean;
}

const RENDERER_DIR = packagePath('dist', 'renderer') + path.sep;

export function registerServe(program: Command): void {
  addCommonOptions(
    program
      .command('serve')
      .description('Run Sluice with its interface in your browser (on this machine only, unless --allow-remote).'),
  )
    .option('--port <n>', 'port to listen on (default: any free port)', parsePositiveInt)
    .option('--host <addr>', 'address to listen on (default 127.0.0.1; anything else needs --allow-remote)')
    .option('--allow-remote', 'allow --host to be reachable from other machines (the access token still applies)')
    .option('--open', 'open the interface in the default browser')
    .option('--new-token', 'make a new access token: links printed before stop working (kept for this state folder)')
    .action(async (flags: ServeFlags) => {
      process.exitCode = await runServe(flags);
    });
}

async function runServe(flags: ServeFlags): Promise<number> {
  if (flags.host && !['127.0.0.1', 'localhost', '::1'].includes(flags.host) && !flags.allowRemote) {
    console.error(
      `sluice serve: --host ${flags.host} would expose Sluice to the network; add --allow-remote to mean it.`,
    );
    return 2;
  }
  let runtime;
  try {
    runtime = await openRuntime(flags);
  } catch (e) {
    console.error(`sluice serve: ${(e as Error).message}`);
    return 1;
  }
  try {
    await runtime.start({ watch: true });
    const platform = webPlatform({ version: packageVersion(), secrets: keytarVault() });
    // Kept for the state folder: a tab opened with the printed link survives a restart.
    const token = webAccessToken(runtime.stateDir, { renew: flags.newToken === true });
    const web = await startWebBridge(runtime, platform, {
      token,
      ...(flags.port ? { port: flags.port } : {}),
      ...(flags.host ? { host: flags.host } : {}),
      ...(flags.allowRemote ? { allowRemote: true } : {}),
      rendererDir: RENDERER_DIR,
    });
    // Listening before the link is printed: a stop right after it closes the runtime, not the process.
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    console.log(`Sluice is running at ${web.openUrl}`);
    console.log(
      flags.newToken
        ? 'Open that link (it carries a new access token: links printed before no longer work). Press Ctrl+C to stop.'
        : 'Open that link (it carries the access token, kept for this state folder). Press Ctrl+C to stop.',
    );
    if (flags.open) {
      if (hasDesktop()) await openWithSystem(web.openUrl).catch((e: Error) => console.error(e.message));
      else console.log('No desktop session here to open a browser in: open the link above yourself.');
    }
    await stopped;
    console.log('Stopping: work in progress resumes next time.');
    // A last resort: whatever still holds the process open, a stop that was asked for happens.
    setTimeout(() => {
      console.error('sluice serve: stopping took longer than 15 s; exiting now.');
      process.exit(process.exitCode ?? 0);
    }, 15_000).unref();
    await web.close();
    return 0;
  } catch (e) {
    console.error(`sluice serve: ${(e as Error).message}`);
    return 1;
  } finally {
    await runtime.close();
  }
}
