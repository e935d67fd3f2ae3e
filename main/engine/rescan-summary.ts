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
  /** Found but never queued, by reason ("empty", "second copy of a card"): not counted as new. */
  skipped?: Record<string, number>;
  text: string;
}

export function summarizeRescan(
  files: ReadonlyArray<FileStat & { path: string }>,
  knownAs: (f: FileStat & { path: string }) => KnownAs,
  now: number,
  settleMs: number,
  /** Why a file is never queued (empty, a second copy of a card), or undefined when it would be. */
  skipOf: (f: FileStat & { path: string }) => string | undefined = () => undefined,
): RescanSummary {
  const s: Omit<RescanSummary, 'at' | 'text'> = { newFiles: 0, inQueue: 0, alreadyProcessed: 0, stillCopying: 0 };
  const skipped: Record<string, number> = {};
  for (const f of files) {
    const known = knownAs(f);
    const skip = known === 'new' ? skipOf(f) : undefined;
    if (skip !== undefined) skipped[skip] = (skipped[skip] ?? 0) + 1;
    else if (known === 'done') s.alreadyProcessed++;
    else if (known === 'queued') s.inQueue++;
    else if (now - f.mtimeMs < settleMs) s.stillCopying++;
    else s.newFiles++;
  }
  if (Object.keys(skipped).length > 0) s.skipped = skipped;
  return { at: now, ...s, text: describeRescan(s) };
}

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export function describeRescan(
  s: Pick<RescanSummary, 'newFiles' | 'inQueue' | 'alreadyProcessed' | 'stillCopying' | 'skipped'>,
): string {
  const why = Object.entries(s.skipped ?? {});
  const skipped = why.reduce((n, [, k]) => n + k, 0);
  const parts = [
    s.newFiles > 0 ? count(s.newFiles, 'new file', 'new files') : '',
    s.inQueue > 0 ? `${s.inQueue} already in the queue` : '',
    s.alreadyProcessed > 0 ? `${s.alreadyProcessed} already processed` : '',
    s.stillCopying > 0 ? `${s.stillCopying} still copying` : '',
    // Said with why, so a count of new files is what will be queued ("4 new files" that queued nothing).
    skipped > 0 ? `${skipped} skipped (${why.map(([reason, k]) => `${k} ${reason}`).join(', ')})` : '',
  ].filter(Boolean);
  return parts.length === 0 ? 'No media files found.' : `${parts.join(', ')}.`.replace(/^./, (c) => c.toUpperCase());
}
