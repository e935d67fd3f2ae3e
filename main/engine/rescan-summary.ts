// What a Rescan found, counted and said in a sentence ("3 new files, 2 already processed, 1 still
// copying"). Pure: the watcher lists the files, the intake says what it already knows of each.
import type { FileStat } from './settle.js';

export type KnownAs = 'new' | 'queued' | 'done';

export interface RescanSummary {
  at: number;
  /** Complete files not taken before: they are queued once their settle time has passed. */
  newFiles: number;
  /** Already waiting or running in the queue. */
  inQueue: number;
  /** Taken before with the same content: not processed again. */
  alreadyProcessed: number;
  /** Changed within the settle time: taken once the copy is over. */
  stillCopying: number;
  text: string;
}

export function summarizeRescan(
  files: ReadonlyArray<FileStat & { path: string }>,
  knownAs: (f: FileStat & { path: string }) => KnownAs,
  now: number,
  settleMs: number,
): RescanSummary {
  const s = { newFiles: 0, inQueue: 0, alreadyProcessed: 0, stillCopying: 0 };
  for (const f of files) {
    const known = knownAs(f);
    if (known === 'done') s.alreadyProcessed++;
    else if (known === 'queued') s.inQueue++;
    else if (now - f.mtimeMs < settleMs) s.stillCopying++;
    else s.newFiles++;
  }
  return { at: now, ...s, text: describeRescan(s) };
}

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export function describeRescan(
  s: Pick<RescanSummary, 'newFiles' | 'inQueue' | 'alreadyProcessed' | 'stillCopying'>,
): string {
  const parts = [
    s.newFiles > 0 ? count(s.newFiles, 'new file', 'new files') : '',
    s.inQueue > 0 ? `${s.inQueue} already in the queue` : '',
    s.alreadyProcessed > 0 ? `${s.alreadyProcessed} already processed` : '',
    s.stillCopying > 0 ? `${s.stillCopying} still copying` : '',
  ].filter(Boolean);
  return parts.length === 0 ? 'No media files found.' : `${parts.join(', ')}.`.replace(/^./, (c) => c.toUpperCase());
}
