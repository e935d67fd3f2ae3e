// `sluice usage --stream ID` / `--file PATH`: what one file cost, per operation (the AI prompts'
// tokens on their own line), as the job detail shows it. `--file` finds the file's latest stream in
// History; failures are said in words (engine/usage-words.ts), never as the service's error.
import path from 'node:path';
import type { SluiceClient } from '../../api/client.js';
import { operationLabel } from '../../../preload/labels.js';
import { readHistory } from '../../adapters/store/history/history-read.js';
import { streamCost, type StreamCost } from '../../engine/stream-cost.js';
import { streamUsageProblem } from '../../engine/usage-words.js';
import { isServiceError } from '../../service/errors.js';
import type { StreamUsageDto } from '../../service/types.js';
import { renderTable, type TableOptions } from '../table.js';

const minutes = (ms: number): string => (ms / 60_000).toFixed(1);

export function streamCostTable(c: StreamCost, opts: TableOptions = {}): string {
  const headers = ['Operation', 'Audio (min)', 'AI tokens in', 'AI tokens out', `Amount (${c.currency ?? 'credits'})`];
  const row = (label: string, l: StreamCost['total']): string[] => [
    label,
    minutes(l.audioMs),
    String(l.tokensIn),
    String(l.tokensOut),
    l.amount,
  ];
  const rows = c.lines.map((l) => {
    const notes = [l.final ? '' : 'still counting', l.errorOccurred ? 'stopped on an error' : ''].filter(Boolean);
    return row(`${operationLabel(l.operationType)}${notes.length ? ` (${notes.join(', ')})` : ''}`, l);
  });
  return renderTable(
    headers.map((header) => ({ header })),
    [...rows, row(c.total.final ? 'Total' : 'Total so far', c.total)],
    opts,
  );
}

/** The latest stream of the file at `file` in History (its own path or where it was moved). */
export function streamOfFile(stateDir: string, file: string): string | undefined {
  const wanted = path.resolve(file);
  const jobs = readHistory(stateDir, { states: [], search: path.basename(file), limit: 10_000 });
  const same = (p: string | undefined): boolean => p !== undefined && path.resolve(p) === wanted;
  return jobs.find((j) => j.streamId && (same(j.source.path) || same(j.movedTo)))?.streamId;
}

/** Prints the cost of stream `id`; the exit code. A currency the service refuses is the caller's to report. */
export async function printStreamCost(
  client: SluiceClient,
  simulated: boolean,
  id: string,
  flags: { currency?: string; json?: boolean; wide?: boolean; file?: string },
): Promise<number> {
  let dto: StreamUsageDto;
  try {
    dto = await client.streamUsage(id, flags.currency ? { currency: flags.currency } : {});
  } catch (e) {
    if (!isServiceError(e) || e.internalErrorName === 'CURRENCY_ERROR') throw e;
    const p = streamUsageProblem(e);
    console.error(`sluice usage: ${p.message}`);
    return p.kind === 'bad-id' ? 2 : 1;
  }
  const cost = streamCost(dto);
  if (flags.json) console.log(JSON.stringify(cost, null, 2));
  else {
    if (simulated) console.error('Sandbox usage (simulated).');
    const name = flags.file ? path.basename(flags.file) : undefined;
    console.log(`Stream ${id}${name ? ` (${name})` : ''}`);
    console.log(streamCostTable(cost, { wide: flags.wide === true }));
  }
  return 0;
}
