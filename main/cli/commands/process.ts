// `sluice process <file-or-folder>...`: processes once and exits — 0 when every file completed
// with its results written, 1 when any did not (or was skipped), 2 on usage errors. Ctrl+C stops
// cleanly; a rerun picks up where it stopped.
import type { Command } from 'commander';
import path from 'node:path';
import type { JobRecord } from '../../engine/job.js';
import { probeForOneRun, warmMediaProbe } from '../../media/probe.js';
import { looksLikeLink } from '../../engine/media-link.js';
import { addJobOptions, openRuntime, outputOf, templateAndParams, UsageError, type JobFlags } from '../context.js';
import { printable } from '../printable.js';
import { barProgress, jobJson, plainProgress, summaryTable } from '../progress.js';
import { WIDE_OPTION } from '../table.js';

interface ProcessFlags extends JobFlags {
  force?: boolean;
  linksDir?: string;
  wide?: boolean;
}

export function registerProcess(program: Command): void {
  addJobOptions(
    program
      .command('process')
      .description(
        'Process files, folders or media links once, save results beside the files (links: in the links folder), and exit.',
      )
      .argument('<paths...>', 'media files, folders (searched recursively) or http(s) links the service fetches'),
  )
    .option('--force', 'process again even files and links whose results already exist')
    .option('--links-dir <dir>', "folder for the links' results (default: from settings, else Downloads)")
    .option(...WIDE_OPTION)
    .action(async (paths: string[], flags: ProcessFlags) => {
      process.exitCode = await runProcess(paths, flags);
    });
}

export async function runProcess(paths: string[], flags: ProcessFlags): Promise<number> {
  // Every file given is probed before it is queued: have the probe load while the runtime opens.
  probeForOneRun();
  if (paths.some((p) => !looksLikeLink(p))) warmMediaProbe();
  const runtime = await openRuntime(flags, { heldPause: 'ignore' });
  let interrupted = false;
  const onSignal = (): void => {
    interrupted = true;
    void runtime.close().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const chosen = templateAndParams(flags, runtime.settings.get(), await runtime.templates.get());
    const { templateId, params } = chosen;
    if (chosen.notice && !flags.json) console.error(chosen.notice);
    await runtime.start();
    const output = outputOf(flags, runtime.settings.get());
    const add = {
      templateId,
      params,
      recipe: chosen.recipe,
      glossary: chosen.glossary,
      output,
      ...(flags.force ? { force: true } : {}),
    };
    const links = paths.filter(looksLikeLink);
    const files = paths.filter((p) => !looksLikeLink(p));
    const outcomes = [
      ...(files.length > 0 ? await runtime.queue.addPaths(files, add) : []),
      ...(links.length > 0
        ? await runtime.queue.addLinks(links, {
            ...add,
            ...(flags.linksDir ? { resultsDir: path.resolve(flags.linksDir) } : {}),
          })
        : []),
    ];
    const ids = new Set<string>();
    const skipped: Array<{ path: string; message: string }> = [];
    for (const o of outcomes) {
      if (o.outcome === 'rejected') {
        skipped.push({ path: o.path, message: o.message });
        if (!flags.json) console.error(`skipped: ${printable(o.message)}`);
      } else {
        ids.add(o.jobId);
        if (o.outcome === 'already-done' && !flags.json) console.error(`already processed: ${printable(o.path)}`);
      }
    }
    if (ids.size === 0 && skipped.length === 0) throw new UsageError('Nothing to process.');
    const view = flags.json
      ? undefined
      : process.stdout.isTTY
        ? barProgress(runtime, ids)
        : plainProgress(runtime, ids);
    let jobs: JobRecord[];
    // The engine's timers are unref'd (they must not hold the desktop app open): hold the CLI open.
    const keepAlive = setInterval(() => undefined, 60_000);
    try {
      jobs = await runtime.queue.whenSettled([...ids]);
    } finally {
      clearInterval(keepAlive);
      view?.stop();
    }
    report(jobs, flags, runtime.connection.simulated, skipped);
    if (skipped.length > 0 && !flags.json) {
      console.error(`${skipped.length} not processed: skipped for the reasons above.`);
    }
    const unwritten = jobs.filter(resultsNotWritten);
    if (unwritten.length > 0) console.error(recoveryHint(unwritten.length, paths, flags));
    const allDone = jobs.every((j) => j.state === 'completed') && unwritten.length === 0 && skipped.length === 0;
    return allDone ? 0 : 1;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`sluice process: ${e.message}`);
      return 2;
    }
    console.error(`sluice process: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!interrupted) await runtime.close();
  }
}

/** Processed, but its results are not beside the source: only the kept export holds them. */
const resultsNotWritten = (j: JobRecord): boolean =>
  j.state === 'completed' && j.stagedResultPath !== undefined && j.resultWarning !== undefined;

const shellQuote = (s: string): string => (/^[\w./:=@%+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

function recoveryHint(n: number, paths: string[], flags: ProcessFlags): string {
  const args = [...paths, ...(flags.stateDir ? ['--state-dir', flags.stateDir] : [])].map(shellQuote).join(' ');
  return printable(
    `${n === 1 ? '1 file was' : `${n} files were`} processed but the results could not be written (reasons above). ` +
      `Fix the cause, then run: sluice rewrite ${args}  (writes them from the kept exports, without processing again)`,
  );
}

function report(
  jobs: JobRecord[],
  flags: ProcessFlags,
  simulated: boolean,
  skipped: ReadonlyArray<{ path: string; message: string }>,
): void {
  if (flags.json) {
    console.log(JSON.stringify({ simulated, jobs: jobs.map(jobJson), skipped }, null, 2));
    return;
  }
  console.log(summaryTable(jobs, { wide: flags.wide === true }));
  const n = (s: string): number => jobs.filter((j) => j.state === s).length;
  console.log(`${n('completed')} completed, ${n('failed')} failed, ${n('canceled') + n('expired')} not finished`);
}
