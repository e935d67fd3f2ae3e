// Progress for `sluice process` and `sluice watch`: bars with ETA on a terminal (cli-progress),
// one plain line per state change otherwise (logs, CI), and the closing summary table (table.ts).
import { sourceLabel, sourceName } from '../engine/media-link.js';
import cliProgress from 'cli-progress';
import path from 'node:path';
import { isTerminal, type JobRecord } from '../engine/job.js';
import { lineProgress } from '../engine/estimate.js';
import { noSpeechNote, rateLimitNote } from '../engine/outcome-words.js';
import type { Services } from '../runtime/services.js';

/** What a progress view follows: the engine's events and the queue's jobs. */
type Followed = Pick<Services, 'on' | 'queue'>;
import { printable } from './printable.js';
import { fitCells, renderTable, type TableOptions } from './table.js';

/** What became of a job, in one line fit for a terminal (names escaped: see printable.ts). */
export function describeJob(j: JobRecord): string {
  return printable(describe(j));
}

function describe(j: JobRecord): string {
  if (j.state === 'completed') {
    const files = j.results.map(
      (r) =>
        path.basename(r.path) +
        (r.collided ? ' (name taken: fallback used)' : '') +
        (r.shortened ? ' (name too long: shortened)' : ''),
    );
    return [files.join(', '), j.resultWarning, ...jobNotes(j)].filter(Boolean).join(' — ') || 'done';
  }
  if (j.error) {
    const where = j.error.processorId ? `${j.error.processorId}: ` : '';
    const text = j.error.stateDescription ?? j.error.message;
    const name =
      j.error.internalErrorName && !text.includes(j.error.internalErrorName) ? ` [${j.error.internalErrorName}]` : '';
    return `${where}${text}${name}`;
  }
  return j.resultWarning ?? '';
}

/** Everything a finished job says beside its files: the review's note and each result's notes. */
function jobNotes(j: JobRecord): string[] {
  return [noSpeechNote(j), j.review?.note, ...j.results.flatMap((r) => r.notes ?? [])].filter((n): n is string => !!n);
}

export function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export interface ProgressView {
  stop(): void;
}

/** Plain lines: one per state change, machine-greppable (`state file detail`). */
export function plainProgress(runtime: Followed, ids: ReadonlySet<string>, out = process.stdout): ProgressView {
  const last = new Map<string, string>();
  const off = runtime.on((e) => {
    if (e.type === 'queue:paused') out.write(`paused ${e.reason}: ${printable(e.message)}\n`);
    if (e.type === 'queue:resumed') out.write('resumed\n');
    if (e.type !== 'job:updated' || !ids.has(e.job.id)) return;
    const j = e.job;
    // A rate-limited job waits again and again: each wait is a line, with how long it is.
    const note = rateLimitNote(j, Date.now());
    const seen = note ? `${j.state} ${j.nextAttemptAt}` : j.state;
    if (last.get(j.id) === seen) return;
    last.set(j.id, seen);
    const detail = j.state === 'completed' || j.state === 'failed' ? ` ${describeJob(j)}` : note ? ` ${note}` : '';
    out.write(`${j.state} ${printable(sourceLabel(j))}${detail}\n`);
  });
  return { stop: off };
}

/** Terminal bars: one for the batch (files done, ETA) and one per file being uploaded. */
export function barProgress(runtime: Followed, ids: ReadonlySet<string>): ProgressView {
  const multi = new cliProgress.MultiBar(
    {
      format: ' {name} |{bar}| {percentage}% | {detail}',
      barCompleteChar: '█',
      barIncompleteChar: '░',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 20,
      autopadding: true,
    },
    cliProgress.Presets.shades_grey,
  );
  const batch = multi.create(
    ids.size,
    0,
    { name: 'Batch'.padEnd(24), detail: '' },
    {
      format: ' {name} |{bar}| {value}/{total} files | ETA {eta_formatted} | {detail}',
    },
  );
  const bars = new Map<string, cliProgress.SingleBar>();
  const refresh = (): void => {
    let done = 0;
    const states: Record<string, number> = {};
    for (const id of ids) {
      const j = runtime.queue.job(id);
      if (!j) continue;
      states[j.state] = (states[j.state] ?? 0) + 1;
      if (isTerminal(j.state)) done++;
      const p = runtime.queue.progressOf(id);
      let bar = bars.get(id);
      if (p && !bar) {
        bar = multi.create(
          p.total || 1,
          0,
          { name: fitCells(sourceName(j), 24), detail: '' },
          { format: ' {name} |{bar}| {percentage}% | ETA {eta_formatted} | {detail}' },
        );
        bars.set(id, bar);
      }
      if (bar) {
        if (p) {
          // What the line carried and its speed, as the Queue shows them (engine/estimate.ts), not
          // the bytes handed to the socket over the time since the start.
          const line = lineProgress(p, Date.now());
          bar.setTotal(p.total || 1);
          bar.update(line.carried, {
            detail: `${mb(line.carried)} of ${mb(p.total)}${line.speed > 0 ? ` · ${mb(line.speed)}/s` : ''}`,
          });
        } else {
          bar.update(bar.getTotal(), { detail: j.state });
          multi.remove(bar);
          bars.delete(id);
        }
      }
    }
    const pause = runtime.queue.pauseState;
    const summary = Object.entries(states)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ');
    batch.update(done, { detail: pause ? `paused: ${printable(pause.message)}` : summary });
  };
  const timer = setInterval(refresh, 200);
  refresh();
  return {
    stop: () => {
      clearInterval(timer);
      refresh();
      multi.stop();
    },
  };
}

export function summaryTable(jobs: readonly JobRecord[], opts: TableOptions = {}): string {
  return renderTable(
    [
      { header: 'File' },
      { header: 'State', shrink: 'none' },
      { header: 'Stream', shrink: 'id' },
      { header: 'Result / reason' },
    ],
    jobs.map((j) => [sourceName(j), j.state, j.streamId ?? '', describeJob(j)]),
    opts,
  );
}

export function jobJson(j: JobRecord): Record<string, unknown> {
  return {
    id: j.id,
    file: sourceLabel(j),
    state: j.state,
    streamId: j.streamId ?? null,
    templateId: j.templateId,
    results: j.results.map((r) => r.path),
    error: j.error ?? null,
    warning: j.resultWarning ?? null,
    // What the line without --json says after the files: formats not written for no speech, files
    // split, starts moved, chapters left out, the glossary.
    notes: jobNotes(j),
    // Team mode: which computer took the file (absent for folders that are not shared).
    ...(j.processedBy ? { processedBy: j.processedBy } : {}),
  };
}
