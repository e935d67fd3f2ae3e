// `sluice selects add|add-gap|add-title|list|export`: sound bites picked from processed files into named lists (a
// string-out), and a list sent to the editor's timeline. Works on the lists the app keeps, while it
// runs: the journal is read, not taken over, and each change to a list is saved under its lock.
// Exit codes as every command: 0 done (for export: every file written and every bite in them),
// 1 not done (a quote not found, a list with clips missing: the rest is still written), 2 usage.
import { InvalidArgumentError, type Command } from 'commander';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { resolveStateDir } from '../../adapters/store/state/state-dir.js';
import { SelectError, SELECT_COLOURS, type SelectColour } from '../../engine/selects/selects.js';
import {
  recordTimecode,
  sourceTimecode,
  timelineItems,
  timelineLength,
  type StringOut,
} from '../../engine/selects/string-out.js';
import { rowsOf } from '../../engine/selects/rows.js';
import { SPACER_LIMITS } from '../../engine/selects/spacers.js';
import { spacerLine } from '../../engine/selects/script.js';
import { TimecodeError } from '../../../common/timecode.js';
import { Selects, STRING_OUT_FORMATS, type StringOutFormat } from '../../runtime/selects.js';
import { parseFrameRate, parseTimecodeStart } from '../options.js';
import { printable } from '../printable.js';
import type { RateId } from '../../engine/timecode/rates.js';

/** As every command's (cli/index.ts): 0 done, 1 not done, 2 usage error. */
const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

interface AddFlags {
  stateDir?: string;
  from?: string;
  to?: string;
  quote?: string;
  label?: string;
  note?: string;
  colour?: SelectColour;
}

interface ExportFlags {
  stateDir?: string;
  formats: StringOutFormat[];
  out: string;
  timecode?: string;
  frameRate?: RateId;
  handles?: number;
  json?: boolean;
}

function parseStringOutFormats(value: string): StringOutFormat[] {
  const list = value
    .split(',')
    .map((f) => f.trim().toLowerCase())
    .filter(Boolean);
  const bad = list.filter((f) => !(STRING_OUT_FORMATS as readonly string[]).includes(f));
  if (bad.length > 0 || list.length === 0) {
    throw new InvalidArgumentError(
      `must list formats among ${STRING_OUT_FORMATS.join(', ')} (got ${printable(value)}).`,
    );
  }
  return [...new Set(list)] as StringOutFormat[];
}

function parseColour(value: string): SelectColour {
  const c = SELECT_COLOURS.find((x) => x.toLowerCase() === value.trim().toLowerCase());
  if (!c) throw new InvalidArgumentError(`must be one of ${SELECT_COLOURS.join(', ')} (got ${printable(value)}).`);
  return c;
}

function parseHandles(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 1000)
    throw new InvalidArgumentError('must be a whole number of frames, 0–1000.');
  return n;
}

function parseSeconds(value: string): number {
  const n = Number(value);
  const [lo, hi] = [SPACER_LIMITS.minMs / 1000, SPACER_LIMITS.maxMs / 1000];
  if (!Number.isFinite(n) || n < lo || n > hi) throw new InvalidArgumentError(`must be seconds, ${lo}–${hi}.`);
  return Math.round(n * 1000);
}

function parseRow(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a row number (0: at the start).');
  return n;
}

function parseTc(value: string): string {
  const tc = parseTimecodeStart(value);
  if (tc === 'source') throw new InvalidArgumentError('must be a timecode such as 01:00:12:05.');
  return tc;
}

/** Tab-separated cells, each made printable (a label may hold anything). */
const row = (cells: readonly string[]): string => cells.map((c) => printable(c)).join('\t');

/** Runs a subcommand: what cannot be done is said on one line, with its exit code. */
async function guarded(run: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await run();
  } catch (e) {
    if (e instanceof SelectError) {
      console.error(`sluice selects: ${printable(e.message)}`);
      process.exitCode = EXIT.failed;
    } else if (e instanceof TimecodeError) {
      console.error(`sluice selects: ${printable(e.message)}`);
      process.exitCode = EXIT.usage;
    } else throw e;
  }
}

/** What the export did, for a person: the files, the timeline, what was left out and why. */
function reportExport(files: string[], so: StringOut): void {
  for (const f of files) console.log(`written ${printable(f)}`);
  const total = timelineLength(so);
  console.log(
    `${so.bites.length} bite${so.bites.length === 1 ? '' : 's'}, ${recordTimecode({ ...so, startFrame: 0 }, total)} long, ${recordTimecode(so, 0)} to ${recordTimecode(so, total)}.`,
  );
  for (const n of so.notes) console.log(printable(n));
  for (const m of so.missing) {
    console.error(
      printable(
        `left out ${m.labels.map((l) => `"${l}"`).join(', ')}: ${m.reason}${m.path ? ` (${m.path})` : ''}. Put the file back, or process it again and add its selects anew.`,
      ),
    );
  }
}

export function registerSelects(program: Command): void {
  const selects = program
    .command('selects')
    .description('Sound bites picked from processed files into named lists, and a list sent to the editor’s timeline.');

  selects
    .command('add')
    .description('Add the words of a processed file to a list (made when there is none), at its end.')
    .argument('<list>', 'the list’s name, such as "Interview rough cut"')
    .argument('<file>', 'a file processed with this state folder')
    .option('--state-dir <dir>', 'state folder (default: the app-data folder)')
    .option(
      '--from <tc>',
      'source timecode of the file where the bite starts (widened to the word it touches)',
      parseTc,
    )
    .option('--to <tc>', 'source timecode where it ends (widened to the word it touches)', parseTc)
    .option('--quote <words>', 'the words of the bite: the first place they are said')
    .option('--label <text>', 'the bite’s name on the timeline (default: its first words)')
    .option('--note <text>', 'a note for the editor')
    .option('--colour <name>', `marker colour: ${SELECT_COLOURS.join(', ')} (default Green)`, parseColour)
    .action(async (list: string, file: string, flags: AddFlags) => {
      const byTime = flags.from !== undefined || flags.to !== undefined;
      if (byTime === (flags.quote !== undefined) || (byTime && (!flags.from || !flags.to))) {
        console.error('sluice selects add: give either --from TC and --to TC, or --quote "words".');
        process.exitCode = EXIT.usage;
        return;
      }
      await guarded(async () => {
        const s = new Selects(resolveStateDir(flags.stateDir));
        const where = flags.quote !== undefined ? { quote: flags.quote } : { fromTc: flags.from!, toTc: flags.to! };
        const saved = await s.add({
          list,
          file,
          where,
          ...(flags.label === undefined ? {} : { label: flags.label }),
          ...(flags.note === undefined ? {} : { note: flags.note }),
          ...(flags.colour === undefined ? {} : { colour: flags.colour }),
        });
        const added = saved.selects[saved.selects.length - 1]!;
        console.log(printable(`added to "${saved.name}" (${saved.selects.length}): ${added.label ?? added.text}`));
        return EXIT.ok;
      });
    });

  for (const kind of ['gap', 'title'] as const) {
    const cmd = selects
      .command(kind === 'gap' ? 'add-gap' : 'add-title')
      .description(
        kind === 'gap'
          ? 'Add a gap (black and silence) to a list, after a row or at its end.'
          : 'Add a title card (a gap holding its text, for the editor’s title) to a list, after a row or at its end.',
      )
      .argument('<list>', 'the list’s name');
    if (kind === 'title') cmd.argument('<text>', 'the title card’s text');
    cmd
      .option('--state-dir <dir>', 'state folder (default: the app-data folder)')
      .option(
        '--seconds <n>',
        `its length (default ${(kind === 'gap' ? SPACER_LIMITS.gapMs : SPACER_LIMITS.titleMs) / 1000})`,
        parseSeconds,
      )
      .option(
        '--after <row>',
        'after this row of `sluice selects list` (1 first, 0 at the start; default: the end)',
        parseRow,
      )
      .action(async (list: string, ...rest: unknown[]) => {
        const text = kind === 'title' ? (rest[0] as string) : undefined;
        const flags = rest[kind === 'title' ? 1 : 0] as { stateDir?: string; seconds?: number; after?: number };
        await guarded(async () => {
          const s = new Selects(resolveStateDir(flags.stateDir));
          const now = await s.store.load(list);
          if (!now) throw new SelectError(`There is no list named "${list.trim()}".`);
          const rowsNow = rowsOf(now);
          if (flags.after !== undefined && flags.after > rowsNow.length) {
            throw new SelectError(`"${now.name}" has ${rowsNow.length} rows: give --after 0 to ${rowsNow.length}.`);
          }
          const ms = flags.seconds ?? (kind === 'gap' ? SPACER_LIMITS.gapMs : SPACER_LIMITS.titleMs);
          const spacer = { id: randomUUID(), kind, ms, ...(text === undefined ? {} : { text }) };
          // --after 0: at the start; N: after row N; none: at the end.
          const after = flags.after === undefined ? undefined : flags.after === 0 ? null : rowsNow[flags.after - 1]!.id;
          await s.edit(list, { kind: 'addSpacer', spacer, ...(after === undefined ? {} : { after }) });
          console.log(
            printable(
              `added to "${now.name}": ${kind === 'gap' ? `a ${ms / 1000} s gap` : `title card "${text ?? ''}" (${ms / 1000} s)`}`,
            ),
          );
          return EXIT.ok;
        });
      });
  }

  selects
    .command('list')
    .description('The lists, or one list’s bites in order with their source timecode.')
    .argument('[list]', 'a list’s name (default: every list)')
    .option('--state-dir <dir>', 'state folder (default: the app-data folder)')
    .option('--json', 'machine-readable output')
    .action(async (name: string | undefined, flags: { stateDir?: string; json?: boolean }) => {
      await guarded(async () => {
        const s = new Selects(resolveStateDir(flags.stateDir));
        if (name === undefined) {
          const lists = await s.store.all();
          if (flags.json) console.log(JSON.stringify(lists.map((l) => ({ name: l.name, selects: l.selects.length }))));
          else if (lists.length === 0)
            console.log('No lists yet: `sluice selects add LIST FILE --quote "words"` makes one.');
          else for (const l of lists) console.log(row([l.name, `${l.selects.length} selects`]));
          return EXIT.ok;
        }
        const so = await s.stringOut(name);
        const rows = so.bites.map((b) => ({
          number: b.number,
          label: b.label,
          file: b.clip.path,
          ...(b.speaker ? { speaker: b.speaker } : {}),
          sourceIn: sourceTimecode(b.clip, b.wordsIn),
          sourceOut: sourceTimecode(b.clip, b.wordsOut),
          fromMs: b.wordsFromMs,
          toMs: b.wordsToMs,
          text: b.text,
          note: b.note,
          colour: b.colour,
        }));
        const spacers = so.spacers.map((x) => ({
          kind: x.kind,
          ...(x.text === undefined ? {} : { text: x.text }),
          recordIn: recordTimecode(so, x.recordIn),
          frames: x.recordOut - x.recordIn,
        }));
        if (flags.json) {
          console.log(JSON.stringify({ name: so.name, selects: rows, spacers, missing: so.missing }, null, 2));
        } else {
          for (const { bite, spacer } of timelineItems(so)) {
            const r = bite ? rows[bite.number - 1]! : undefined;
            console.log(
              r
                ? row([
                    String(r.number),
                    r.label,
                    path.basename(r.file),
                    r.speaker ?? '',
                    r.sourceIn,
                    r.sourceOut,
                    r.text,
                  ])
                : row(['', spacerLine(spacer!, so)]),
            );
          }
          for (const m of so.missing) console.log(row(['missing', m.labels.join(', '), m.reason]));
        }
        return so.missing.length > 0 ? EXIT.failed : EXIT.ok;
      });
    });

  selects
    .command('export')
    .description(
      'Write a list as a timeline for the editor: OpenTimelineIO, FCPXML, Premiere XML, EDL, a paper-edit script.',
    )
    .argument('<list>', 'the list’s name')
    .requiredOption('--out <dir>', 'the folder to write into (files are named after the list)')
    .option(
      '--formats <list>',
      `comma-separated: ${STRING_OUT_FORMATS.join(', ')} (default: all)`,
      parseStringOutFormats,
      [...STRING_OUT_FORMATS],
    )
    .option('--state-dir <dir>', 'state folder (default: the app-data folder)')
    .option('--timecode <tc>', 'where the timeline starts (default 01:00:00:00)', parseTc)
    .option('--frame-rate <rate>', 'the timeline’s rate (default: the first clip’s with a picture)', parseFrameRate)
    .option('--handles <frames>', 'frames added before and after each bite, within the media (default 0)', parseHandles)
    .option('--json', 'machine-readable output')
    .action(async (name: string, flags: ExportFlags) => {
      await guarded(async () => {
        const s = new Selects(resolveStateDir(flags.stateDir));
        const { files, stringOut: so } = await s.export(name, flags.formats, flags.out, {
          ...(flags.timecode ? { start: flags.timecode } : {}),
          ...(flags.frameRate ? { rate: flags.frameRate } : {}),
          ...(flags.handles === undefined ? {} : { handles: flags.handles }),
        });
        if (flags.json) {
          console.log(JSON.stringify({ files, bites: so.bites.length, missing: so.missing, notes: so.notes }, null, 2));
        } else reportExport(files, so);
        return so.missing.length > 0 ? EXIT.failed : EXIT.ok;
      });
    });
}
