// `sluice sandbox`: the local, simulated service on loopback, for trying Sluice and for tests.
import type { Command } from 'commander';
import { SANDBOX } from '../../service/policy.js';
import { sandboxOptionsFromEnv, startSandbox } from '../../sandbox/index.js';
import { parseProfileName, SANDBOX_PROFILES } from '../../sandbox/profile.js';
import { parsePort } from '../options.js';

interface SandboxFlags {
  port: number;
  host: string;
  apiKey?: string;
  speedFactor?: string;
  profile?: string;
  verbose?: boolean;
}

export function registerSandbox(program: Command): void {
  program
    .command('sandbox')
    .description('Serve a local, simulated copy of the service on loopback (results are simulated).')
    .option('--port <n>', 'port to listen on (0 picks a free one)', parsePort, 8787)
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--api-key <key>', `API key the sandbox accepts (default: ${SANDBOX.apiKey})`)
    .option('--speed-factor <x>', 'simulated processing time as a fraction of the media duration')
    .option(
      '--profile <name>',
      `${SANDBOX_PROFILES.join(' or ')}: realistic adds queue delays, slower processing and exports, and some 503s`,
    )
    .option('--verbose', 'log every request')
    .action(async (flags: SandboxFlags) => {
      const speedFactor = flags.speedFactor === undefined ? undefined : Number(flags.speedFactor);
      if (speedFactor !== undefined && !(speedFactor >= 0)) {
        throw new Error('--speed-factor must be a number ≥ 0.');
      }
      const profile = flags.profile === undefined ? undefined : parseProfileName(flags.profile, '--profile');
      // SLUICE_SANDBOX_* variables (faults, processing time, retention...) first; flags win.
      const options = {
        ...sandboxOptionsFromEnv(),
        port: flags.port,
        host: flags.host,
        ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
        ...(speedFactor !== undefined ? { speedFactor } : {}),
        ...(profile !== undefined ? { profile } : {}),
        ...(flags.verbose ? { logger: (line: string) => console.log(line) } : {}),
      };
      // Listening before the first line is printed: whoever reads "listening" may stop it at once,
      // and a stop that lands before the handler would kill the process instead of closing it.
      const stopped = new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      const sandbox = await startSandbox(options);
      const profileNote = options.profile === 'realistic' ? `, realistic profile, seed ${options.seed ?? 1}` : '';
      console.log(`Sluice sandbox (simulated results${profileNote}) listening on ${sandbox.url}`);
      console.log(`Use it with: sluice process <file> --base-url ${sandbox.url}`);
      console.log('Press Ctrl+C to stop.');
      await stopped;
      await sandbox.close();
    });
}
