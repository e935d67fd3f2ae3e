// `sluice` command line: parses arguments with commander and dispatches to one module per command.
// Only the module of the command being run is loaded (each pulls in the runtime, the client and
// more): `sluice --version` loads none, `sluice watch` only watch's. Help without a command loads
// them all, to list them.
// Exit codes: 0 success, 1 a file or request failed, 2 usage error.
import { Command, CommanderError } from 'commander';
import { packageVersion } from './package-root.js';
import { printableLines } from './printable.js';

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

type Register = (program: Command) => void;

/** Each module with the commands it defines, in the order help lists them. */
const MODULES: ReadonlyArray<[readonly string[], () => Promise<Register>]> = [
  [['process'], async () => (await import('./commands/process.js')).registerProcess],
  [['watch'], async () => (await import('./commands/watch.js')).registerWatch],
  [['rewrite'], async () => (await import('./commands/rewrite.js')).registerRewrite],
  [['sandbox'], async () => (await import('./commands/sandbox.js')).registerSandbox],
  [['status', 'history'], async () => (await import('./commands/info.js')).registerInfo],
  [['templates'], async () => (await import('./commands/templates.js')).registerTemplates],
  [['usage', 'cancel'], async () => (await import('./commands/service.js')).registerService],
  [['serve'], async () => (await import('./commands/serve.js')).registerServe],
  [['selects'], async () => (await import('./commands/selects.js')).registerSelects],
];

/** The modules `argv` needs: its command's, none for a bare --version, all otherwise (help, typos). */
function modulesFor(argv: readonly string[]): Array<() => Promise<Register>> {
  const name = argv.find((a) => !a.startsWith('-'));
  if (name === undefined && argv.length > 0 && argv.every((a) => a === '--version' || a === '-V')) return [];
  const mine = MODULES.find(([names]) => name !== undefined && names.includes(name));
  return mine ? [mine[1]] : MODULES.map(([, load]) => load);
}

export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command('sluice')
    .description('Send audio and video to the stream-processing service and save the results beside your files.')
    .version(packageVersion())
    .showHelpAfterError('(run `sluice --help` for usage)')
    // A refusal may quote what it was given (a file's terms, an argument): never raw to the terminal.
    .configureOutput({ outputError: (text, write) => write(printableLines(text)) })
    .exitOverride();
  const registers = await Promise.all(modulesFor(argv).map((load) => load()));
  for (const register of registers) register(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    const program = await buildProgram(argv);
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    console.error(`sluice: ${printableLines(e instanceof Error ? e.message : String(e))}`);
    return EXIT.failed;
  }
}
