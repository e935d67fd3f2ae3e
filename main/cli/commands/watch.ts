// `sluice watch [folder...]`: watches folders until SIGINT/SIGTERM, then stops cleanly (journal
// flushed, uploads in flight left resumable). Without folders it watches the saved watch folders.
import { folderFileSystem } from '../../adapters/watch/folder/file-system-kind.js';
import { networkPhrase } from '../../engine/file-system-kind.js';
import type { Command } from 'commander';
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { CLAIM_TIMEOUT_S, WATCH_FOLDER } from '../../engine/settings.js';
import { addJobOptions, openRuntime, outputOf, templateAndParams, UsageError, type JobFlags } from '../context.js';
import { SkipLines } from '../skip-lines.js';
import { printable } from '../printable.js';
import { describeJob } from '../progress.js';
import { currentPath } from '../../engine/source-path.js';
import { isTerminal } from '../../engine/job.js';

interface WatchFlags extends JobFlags {
  recursive: boolean;
  output?: string;
  include: string[];
  exclude: string[];
  shared?: boolean;
  claimTimeout?: string;
}

/** `--claim-timeout SECONDS`: whole seconds within the folder setting's bounds, or a usage error that says them. */
function claimTimeoutOf(flags: WatchFlags): number | undefined {
  if (flags.claimTimeout === undefined) return undefined;
  const n = Number(flags.claimTimeout);
  const ok = CLAIM_TIMEOUT_S.safeParse(n);
  if (!/^\d+$/.test(flags.claimTimeout.trim()) || !ok.success) {
    throw new UsageError(`--claim-timeout takes whole seconds from 5 to 86400, not "${flags.claimTimeout}".`);
  }
  if (!flags.shared) throw new UsageError('--claim-timeout needs --shared.');
  return n;
}

const collect = (v: string, prev: string[]): string[] => [...prev, v];

export function registerWatch(program: Command): void {
  addJobOptions(
    program
      .command('watch')
      .description('Watch folders and process every new file until stopped (Ctrl+C).')
      .argument('[folders...]', 'folders to watch (default: the saved watch folders)'),
  )
    .option('--no-recursive', 'do not look into subfolders')
    .option('--include <glob>', 'only files matching this pattern; repeatable (default: audio and video)', collect, [])
    .option('--exclude <glob>', 'skip files matching this pattern; repeatable', collect, [])
    .option('--shared', 'the folder is shared with other computers running Sluice: each file is processed by one')
    .option('--claim-timeout <seconds>', 'with --shared: take over a claim not refreshed for this long (default 600)')
    .option(
      '--output <dir>',
      'write results into this folder, under the same subfolders as below the watched folder (default: beside each file)',
    )
    .action(async (folders: string[], flags: WatchFlags) => {
      process.exitCode = await runWatch(folders, flags);
    });
}

async function runWatch(folders: string[], flags: WatchFlags): Promise<number> {
  // Listening from the first moment: a stop asked for while the state folder is being opened or
  // the folders scanned must still close the runtime (and release its lock), not kill the process.
  let stopRequested = false;
  let stop = (): void => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = () => {
      stopRequested = true;
      resolve();
    };
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await watchUntilStopped(folders, flags, stopped, () => stopRequested);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

async function watchUntilStopped(
  folders: string[],
  flags: WatchFlags,
  stopped: Promise<void>,
  stopRequested: () => boolean,
): Promise<number> {
  for (const f of [...folders, ...(flags.output === undefined ? [] : [flags.output])]) {
    const s = await stat(f).catch(() => null);
    if (!s?.isDirectory()) {
      console.error(`sluice watch: ${f} is not a folder.`);
      return 2;
    }
  }
  if (flags.output !== undefined && folders.length === 0) {
    console.error('sluice watch: --output applies to the folders given here; give the folders to watch.');
    return 2;
  }
  let runtime;
  try {
    runtime = await openRuntime(flags);
  } catch (e) {
    console.error(`sluice watch: ${(e as Error).message}`);
    return 1;
  }
  try {
    if (stopRequested()) return 0;
    // The same check as `sluice process`: the account's catalogue first, so its own templates'
    // parameters are checked (or said to go unchecked) before anything is watched.
    const catalogue = await Promise.race([runtime.templates.get(), stopped.then(() => undefined)]);
    if (!catalogue) return 0;
    const settings = runtime.settings.get();
    const chosen = templateAndParams(flags, settings, catalogue);
    if (chosen.notice && !flags.json) console.error(chosen.notice);
    const output = outputOf(flags, settings);
    const claimTimeoutS = claimTimeoutOf(flags);
    const extra = folders.map((f) =>
      WATCH_FOLDER.parse({
        id: `cli-${createHash('sha256').update(path.resolve(f)).digest('hex').slice(0, 12)}`,
        path: path.resolve(f),
        templateId: chosen.templateId,
        params: chosen.params,
        recipe: chosen.recipe,
        glossary: chosen.glossary,
        output,
        recursive: flags.recursive,
        include: flags.include,
        exclude: flags.exclude,
        ...(flags.shared ? { shared: true } : {}),
        ...(claimTimeoutS === undefined ? {} : { claimTimeoutS }),
        ...(flags.output === undefined ? {} : { outputDir: path.resolve(flags.output) }),
      }),
    );
    runtime.watchAlso(extra);
    const watched = [...runtime.settings.get().watchFolders.filter((f) => f.enabled), ...extra];
    if (watched.length === 0) throw new UsageError('No folders to watch: give one, or add watch folders in Settings.');
    for (const f of watched) {
      if (f.shared) continue;
      const where = networkPhrase(await folderFileSystem(f.path));
      if (where) console.error(printable(`${f.path} ${where}: if other computers watch it, add --shared on each.`));
    }
    const names = new Map(watched.map((f) => [f.id, f.path]));
    const rt = runtime;
    const lastState = new Map<string, string>();
    const skipLines = new SkipLines((id) => names.get(id) ?? id);
    rt.on((e) => {
      if (e.type === 'job:updated' && lastState.get(e.job.id) !== e.job.state) {
        lastState.set(e.job.id, e.job.state);
        if (e.job.state !== 'uploading' && !isTerminal(e.job.state)) return;
        const detail = ['completed', 'failed'].includes(e.job.state) ? ` ${describeJob(e.job)}` : '';
        console.log(`${e.job.state} ${printable(currentPath(e.job))}${detail}`);
      } else if (e.type === 'folder:status') {
        console.log(
          printable(`folder ${names.get(e.folderId) ?? e.folderId}: ${e.status}${e.message ? ` — ${e.message}` : ''}`),
        );
      } else if (e.type === 'folder:skipped') {
        const line = skipLines.line(e);
        if (line !== undefined) console.log(printable(line));
      } else if (e.type === 'queue:paused') console.log(printable(`paused (${e.reason}): ${e.message}`));
      else if (e.type === 'queue:resumed') console.log('resumed');
    });
    const keepAlive = setInterval(() => undefined, 60_000);
    try {
      // A first scan of a large folder takes a while; a stop during it ends the scan with the runtime.
      await Promise.race([rt.start({ watch: true }), stopped]);
      if (!stopRequested()) {
        console.log(`Watching ${printable(watched.map((f) => f.path).join(', '))}. Press Ctrl+C to stop.`);
        await stopped;
      }
    } finally {
      clearInterval(keepAlive);
    }
    console.log('Stopping: work in progress resumes next time.');
    return 0;
  } catch (e) {
    console.error(`sluice watch: ${(e as Error).message}`);
    return e instanceof UsageError ? 2 : 1;
  } finally {
    await runtime.close();
  }
}
