// `--timecode` and `--frame-rate` as `sluice process` and `sluice watch` parse them: every one of
// the ten rates an editor picks from (written as NLEs show them), `source` or a fixed start, into
// the output settings the jobs are given; anything else refused as a usage error before any work.
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerProcess } from '../../main/cli/commands/process.js';
import { registerWatch } from '../../main/cli/commands/watch.js';
import { outputOf, type JobFlags } from '../../main/cli/context.js';
import { parseFormats } from '../../main/cli/options.js';
import { defaultSettings } from '../../main/engine/settings.js';
import { timelineOf } from '../../main/engine/timecode/timeline.js';

/** The rate each id must mean, written out here rather than taken from the engine's table. */
const RATES: ReadonlyArray<[string, number, number, boolean]> = [
  ['23.976', 24000, 1001, false],
  ['24', 24, 1, false],
  ['25', 25, 1, false],
  ['29.97', 30000, 1001, false],
  ['29.97df', 30000, 1001, true],
  ['30', 30, 1, false],
  ['50', 50, 1, false],
  ['59.94', 60000, 1001, false],
  ['59.94df', 60000, 1001, true],
  ['60', 60, 1, false],
];

/** The command line as `sluice` builds it (errors thrown, not exiting), with one command. */
function program(command: 'process' | 'watch'): Command {
  const p = new Command('sluice').exitOverride().configureOutput({ writeErr: () => undefined });
  (command === 'process' ? registerProcess : registerWatch)(p);
  p.commands.forEach((c) => c.exitOverride());
  return p;
}

/** The flags `sluice <command> …args` hands its action, the action itself not run. */
async function flagsOf(command: 'process' | 'watch', args: string[]): Promise<JobFlags> {
  const p = program(command);
  const cmd = p.commands.find((c) => c.name() === command)!;
  let seen: JobFlags | undefined;
  cmd.action((_paths: string[], flags: JobFlags) => {
    seen = flags;
  });
  await p.parseAsync([command, '/media/clip.wav', ...args], { from: 'user' });
  return seen!;
}

describe.each(['process', 'watch'] as const)('sluice %s', (command) => {
  it.each(RATES)('--frame-rate %s counts media without a rate at %d/%d (drop-frame %s)', async (id, num, den, df) => {
    for (const spelled of [id, id.toUpperCase(), id.replace('df', ' DF')]) {
      const output = outputOf(await flagsOf(command, ['--frame-rate', spelled]), defaultSettings());
      expect(output.timeline).toEqual({ start: 'source', defaultRate: id });
      expect(timelineOf(null, output.timeline).rate).toEqual({ num, den, dropFrame: df });
    }
  });

  it('--timecode takes source or a fixed start, with the saved rate kept when none is given', async () => {
    const settings = defaultSettings();
    settings.defaults.output = { ...settings.defaults.output, timeline: { start: 'source', defaultRate: '29.97df' } };
    const fixed = outputOf(await flagsOf(command, ['--timecode', '00:59:50;00']), settings);
    expect(fixed.timeline).toEqual({ start: '00:59:50;00', defaultRate: '29.97df' });
    expect(timelineOf(null, fixed.timeline)).toMatchObject({ startFrame: 107_592, origin: 'fixed' });
    settings.defaults.output = { ...settings.defaults.output, timeline: { start: '01:00:00:00', defaultRate: '25' } };
    const source = outputOf(await flagsOf(command, ['--timecode', 'SOURCE', '--frame-rate', '23.976']), settings);
    expect(source.timeline).toEqual({ start: 'source', defaultRate: '23.976' });
    // Neither flag: the saved timeline as it is.
    expect(outputOf(await flagsOf(command, []), settings).timeline).toEqual({
      start: '01:00:00:00',
      defaultRate: '25',
    });
  });

  it.each([
    ['--frame-rate', '29.97ndf', /--frame-rate.*must be one of 23\.976, 24, 25, 29\.97, 29\.97df/],
    ['--frame-rate', '23.98', /must be one of/],
    ['--timecode', '1:00:00:00', /must be "source" or a timecode such as 01:00:00:00/],
    ['--timecode', 'start', /must be "source"/],
    ['--timecode', '99:99:99:99', /must be "source".*hours 00–23/],
    ['--timecode', '01:00:00:75', /frame number runs from 00 to 59/],
  ])('%s %s is a usage error that says what to write', async (flag, value, message) => {
    // Commander's invalid-argument error: `sluice` exits 2 with its message on such an error.
    const p = program(command);
    p.commands.forEach((c) => c.configureOutput({ writeErr: () => undefined }));
    const error = await p.parseAsync([command, '/media/clip.wav', flag, value], { from: 'user' }).catch((e) => e);
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as CommanderError).code).toBe('commander.invalidArgument');
    expect((error as CommanderError).message).toMatch(message);
  });
});

describe('--formats', () => {
  it('takes the table’s ids in any case, once each, and refuses any other naming every format', () => {
    expect(parseFormats('SRT, premiere,srt')).toEqual(['srt', 'premiere']);
    expect(() => parseFormats('srt,mp4')).toThrow(/must list formats among json, srt, .*ffmetadata \(got/);
    expect(() => parseFormats(' , ')).toThrow(/must list formats among/);
  });
});
