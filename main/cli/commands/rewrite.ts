// `sluice rewrite [file-or-folder...]`: writes every result format again from the exports kept in
// the state folder ("export all again"), without processing or even reaching the service.
import { InvalidArgumentError, type Command } from 'commander';
import { captionPreset } from '../../engine/captions/presets.js';
import { CAPTION_PRESET_NAMES, type CaptionPresetName } from '../../../common/caption-presets.js';
import path from 'node:path';
import type { JobRecord } from '../../engine/job.js';
import type { ResultFormat } from '../../engine/settings.js';
import { Runtime } from '../../runtime/runtime.js';
import type { Services } from '../../runtime/services.js';
import { stateDirOf } from '../context.js';
import { DEFAULT_TIMELINE, type TimelineSettings } from '../../engine/timecode/timeline.js';
import type { RateId } from '../../engine/timecode/rates.js';
import { parseFormats, parseFrameRate, parseTimecodeStart } from '../options.js';
import { printable } from '../printable.js';
import { describeJob } from '../progress.js';
import { currentPath } from '../../engine/source-path.js';

interface RewriteFlags {
  stateDir?: string;
  formats?: ResultFormat[];
  timecode?: string;
  frameRate?: RateId;
  preset?: CaptionPresetName;
}

const PRESETS = CAPTION_PRESET_NAMES;

function parsePreset(value: string): CaptionPresetName {
  const p = PRESETS.find((x) => x === value.trim().toLowerCase());
  if (!p) throw new InvalidArgumentError(`Use one of ${PRESETS.join(', ')}.`);
  return p;
}

/** The job's timeline with what --timecode and --frame-rate change; undefined when neither is given. */
function timelineOf(job: JobRecord, flags: RewriteFlags): TimelineSettings | undefined {
  if (!flags.timecode && !flags.frameRate) return undefined;
  const own = job.output?.timeline ?? DEFAULT_TIMELINE;
  return { start: flags.timecode ?? own.start, defaultRate: flags.frameRate ?? own.defaultRate };
}

/** Completed jobs whose source is one of `paths` or lies under one of them (all when none given). */
function select(jobs: JobRecord[], paths: string[]): JobRecord[] {
  const roots = paths.map((p) => path.resolve(p));
  return jobs.filter(
    (j) =>
      j.state === 'completed' &&
      (roots.length === 0 || roots.some((r) => currentPath(j) === r || currentPath(j).startsWith(r + path.sep))),
  );
}

export function registerRewrite(program: Command): void {
  program
    .command('rewrite')
    .description('Write the results of finished files again from the kept exports (no processing, works offline).')
    .argument('[paths...]', 'files or folders (default: every completed file)')
    .option('--state-dir <dir>', 'state folder (default: the app-data folder)')
    .option('--formats <list>', 'result formats to write, comma-separated (default: each file’s own)', parseFormats)
    .option(
      '--timecode <start>',
      'where the editor formats start: source (the media’s own timecode) or HH:MM:SS:FF (default: each file’s own)',
      parseTimecodeStart,
    )
    .option(
      '--frame-rate <rate>',
      'frame rate for media without one of its own (default: each file’s own)',
      parseFrameRate,
    )
    .option(
      '--preset <name>',
      'caption layout to write the SRT and VTT in: streaming, broadcast or vertical (default: each file’s own)',
      parsePreset,
    )
    .action(async (paths: string[], flags: RewriteFlags) => {
      // The embedded sandbox stands in for the service: nothing here talks to it.
      const rt = await Runtime.open({ stateDir: stateDirOf(flags), connection: { sandbox: true } });
      try {
        process.exitCode = (await rewriteAll(rt, paths, flags)) > 0 ? 1 : 0;
      } finally {
        await rt.close();
      }
    });
}

/** Writes the matching completed jobs' results again; returns how many could not be written. */
async function rewriteAll(
  { queue, results }: Pick<Services, 'queue' | 'results'>,
  paths: string[],
  flags: RewriteFlags,
): Promise<number> {
  let failed = 0;
  const jobs = select([...queue.everyJob()], paths);
  if (jobs.length === 0) console.log('No completed files match.');
  for (const j of jobs) {
    try {
      const timeline = timelineOf(j, flags);
      const done = await results.writeAgain(j.id, flags.formats, {
        ...(timeline ? { timeline } : {}),
        ...(flags.preset ? { captions: captionPreset(flags.preset) } : {}),
      });
      console.log(`written ${printable(currentPath(j))}: ${describeJob(done)}`);
    } catch (e) {
      failed++;
      console.error(printable(`not written ${currentPath(j)}: ${(e as Error).message}`));
    }
  }
  return failed;
}
