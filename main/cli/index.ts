// `sluice` command line: parses arguments with commander and dispatches to one module per command.
// Exit codes: 0 success, 1 a file or request failed, 2 usage error.
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { registerInfo } from './commands/info.js';
import { registerProcess } from './commands/process.js';
import { registerRewrite } from './commands/rewrite.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerServe } from './commands/serve.js';
import { registerService } from './commands/service.js';
import { registerTemplates } from './commands/templates.js';
import { registerWatch } from './commands/watch.js';

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export function buildProgram(): Command {
  const program = new Command('sluice')
    .description('Send audio and video to the stream-processing service and save the results beside your files.')
    .version(version())
    .showHelpAfterError('(run `sluice --help` for usage)')
    .exitOverride();
  registerProcess(program);
  registerWatch(program);
  registerRewrite(program);
  registerSandbox(program);
  registerInfo(program);
  registerTemplates(program);
  registerService(program);
  registerServe(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    console.error(`sluice: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.failed;
  }
}
