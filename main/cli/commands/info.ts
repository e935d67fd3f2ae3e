// Read-only commands: `status` and `history` read the journal without taking it over (they work
// while `sluice watch` or the app runs), `templates` lists the built-in templates.
import type { Command } from 'commander';
import { TEMPLATES } from '../../service/templates.js';
import { JobStore } from '../../adapters/store/job-store.js';
import { JOB_STATES, type JobRecord, type JobState } from '../../engine/job.js';
import { stateDirOf, type CommonFlags } from '../context.js';
import { printable } from '../printable.js';
import { describeJob, jobJson, newTable } from '../progress.js';

function readJobs(flags: CommonFlags): JobRecord[] {
  return JobStore.snapshot<JobRecord>(stateDirOf(flags));
}

export function registerInfo(program: Command): void {
  program
    .command('status')
    .description('Counts of jobs by state, and what is running now.')
    .option('--state-dir <dir>', 'state folder (default: the app-data folder)')
    .option('--json', 'machine-readable output')
    .action((flags: { stateDir?: string; json?: boolean }) => {
      const jobs = readJobs(flags);
      const counts = Object.fromEntries(JOB_STATES.map((s) => [s, jobs.filter((j) => j.state === s).length]));
      const running = jobs.filter((j) => ['uploading', 'processing', 'exporting'].includes(j.state));
      if (flags.json) {
        console.log(JSON.stringify({ counts, running: running.map(jobJson) }, null, 2));
        return;
      }
      console.log(
        JOB_STATES.map((s) => `${counts[s]} ${s}`)
          .filter((x) => !x.startsWith('0 '))
          .join(', ') || 'No jobs yet.',
      );
      for (const j of running) console.log(`  ${j.state.padEnd(10)} ${printable(j.source.path)}`);
    });

  program
    .command('history')
    .description('Every job Sluice ran, newest first.')
    .option('--state-dir <dir>', 'state folder (default: the app-data folder)')
    .option(
      '--state <state>',
      `only jobs in this state; repeatable (${JOB_STATES.join(', ')})`,
      (v: string, prev: string[]) => {
        if (!JOB_STATES.includes(v as JobState)) throw new Error(`--state must be one of ${JOB_STATES.join(', ')}.`);
        return [...prev, v];
      },
      [] as string[],
    )
    .option('--limit <n>', 'at most this many rows', (v) => Number(v), 50)
    .option('--json', 'machine-readable output')
    .action((flags: { stateDir?: string; state: string[]; limit: number; json?: boolean }) => {
      const jobs = readJobs(flags)
        .filter((j) => flags.state.length === 0 || flags.state.includes(j.state))
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, flags.limit);
      if (flags.json) {
        console.log(JSON.stringify(jobs.map(jobJson), null, 2));
        return;
      }
      if (jobs.length === 0) {
        console.log('No jobs match.');
        return;
      }
      const table = newTable({ head: ['When', 'File', 'State', 'Stream', 'Result / reason'], wordWrap: true });
      for (const j of jobs) {
        table.push([
          new Date(j.createdAt).toISOString().replace('T', ' ').slice(0, 19),
          printable(j.source.path),
          j.state,
          j.streamId ?? '',
          describeJob(j),
        ]);
      }
      console.log(table.toString());
    });

  program
    .command('templates')
    .description('The configuration templates Sluice knows, with their parameters.')
    .action(() => {
      for (const t of TEMPLATES) {
        console.log(`${t.id}  ${t.name}${t.sandboxOnly ? ' (sandbox only)' : ''}`);
        console.log(`    ${t.description}`);
        if (t.params.length) console.log(`    parameters: ${t.params.map((p) => p.name).join(', ')}`);
      }
    });
}
