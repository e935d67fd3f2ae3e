// Read-only commands: `status` and `history` read the journal without taking it over (they work
// while `sluice watch` or the app runs).
import type { Command } from 'commander';
import { readHistory, readStatus } from '../../adapters/store/history/history-read.js';
// Not the context's stateDirOf: that module loads the runtime, seconds of start-up these reads never use.
import { resolveStateDir } from '../../adapters/store/state/state-dir.js';
import { ACTIVE_STATES, JOB_STATES, type JobRecord, type JobState } from '../../engine/job.js';
import { isLinkJob, sourceName } from '../../engine/media-link.js';
import { describeJob, jobJson } from '../progress.js';
import { renderTable, stdoutTarget, WIDE_OPTION, type Column } from '../table.js';
import { currentPath } from '../../engine/source-path.js';

export function registerInfo(program: Command): void {
  program
    .command('status')
    .description('Counts of jobs by state, and what is running now.')
    .option('--state-dir <dir>', 'state folder (default: the app-data folder)')
    .option('--json', 'machine-readable output')
    .option(...WIDE_OPTION)
    .action((flags: { stateDir?: string; json?: boolean; wide?: boolean }) => {
      // Archived jobs are finished: what runs now is in the journal.
      const { counts: byState, journal } = readStatus(resolveStateDir(flags.stateDir));
      const counts = Object.fromEntries(JOB_STATES.map((s) => [s, byState.get(s) ?? 0]));
      const running = journal.filter((j) => (ACTIVE_STATES as readonly JobState[]).includes(j.state));
      if (flags.json) {
        console.log(JSON.stringify({ counts, running: running.map(jobJson) }, null, 2));
        return;
      }
      const summary = JOB_STATES.filter((s) => counts[s] !== 0).map((s) => `${counts[s]} ${s}`);
      console.log(summary.length === 0 ? 'No jobs yet.' : wrapList(summary, flags.wide));
      if (running.length === 0) return;
      console.log(
        renderTable(
          [{ header: 'State', shrink: 'none' }, { header: 'File' }, { header: 'Stream', shrink: 'id' }],
          running.map((j) => [j.state, fileColumn(j), j.streamId ?? '']),
          { wide: flags.wide === true },
        ),
      );
    });

  program
    .command('history')
    .description('Every job Sluice ran, newest first.')
    .option('--state-dir <dir>', 'state folder (default: the app-data folder)')
    .option(
      '--state <state>',
      `only jobs in this state; repeatable (${JOB_STATES.join(', ')})`,
      (v: string, prev: JobState[]) => {
        if (!JOB_STATES.includes(v as JobState)) throw new Error(`--state must be one of ${JOB_STATES.join(', ')}.`);
        return [...prev, v as JobState];
      },
      [] as JobState[],
    )
    .option(
      '--search <text>',
      "only jobs whose file name holds these words (any order, case and accents ignored, as History's search)",
    )
    .option(
      '--computer <name>',
      'only files of a shared folder processed on this computer, letter case ignored; repeatable',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--limit <n>', 'at most this many rows', (v) => Number(v), 50)
    .option('--json', 'machine-readable output')
    .option(...WIDE_OPTION)
    .action(
      (flags: {
        stateDir?: string;
        state: JobState[];
        search?: string;
        computer: string[];
        limit: number;
        json?: boolean;
        wide?: boolean;
      }) => {
        const jobs = readHistory(resolveStateDir(flags.stateDir), {
          states: flags.state,
          ...(flags.search !== undefined ? { search: flags.search } : {}),
          computers: flags.computer,
          limit: flags.limit,
        });
        if (flags.json) {
          console.log(JSON.stringify(jobs.map(jobJson), null, 2));
          return;
        }
        if (jobs.length === 0) {
          console.log('No jobs match.');
          return;
        }
        const columns: Column[] = [
          { header: 'When', shrink: 'none' },
          { header: 'File' },
          { header: 'State', shrink: 'none' },
          { header: 'Stream', shrink: 'id' },
          { header: 'Result / reason' },
        ];
        const rows = jobs.map((j) => [
          new Date(j.createdAt).toISOString().replace('T', ' ').slice(0, 16),
          fileColumn(j),
          j.state,
          j.streamId ?? '',
          j.processedBy ? `${describeJob(j)} (on ${j.processedBy})` : describeJob(j),
        ]);
        console.log(renderTable(columns, rows, { wide: flags.wide === true }));
      },
    );
}

/** A file by its path; a link by its file name (its query may hold a signature, and reads as noise). */
const fileColumn = (j: JobRecord): string => (isLinkJob(j) ? sourceName(j) : currentPath(j));

/** `a, b, c` broken into lines that fit the terminal (one line when piped or `--wide`). */
export function wrapList(items: readonly string[], wide = false): string {
  const target = stdoutTarget();
  const width = !target.isTTY || wide ? Infinity : (target.columns ?? 80);
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const next = line ? `${line}, ${item}` : item;
    if (line && next.length + 1 > width) {
      lines.push(`${line},`);
      line = item;
    } else line = next;
  }
  lines.push(line);
  return lines.join('\n');
}
