// What a Rescan found, counted and said in a sentence ("3 new files, 2 already processed, 1 still
// copying"). Pure: the watcher lists the files, the intake says what it already knows of each.
import { countWords, COUNT_ORDER, type SkipReason } from './folder-skips.js';
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
  /** New but never queued, by reason (folder-skips.ts): `newFiles` is what goes to the queue. */
  skipped?: Partial<Record<SkipReason, number>>;
  text: string;
}

export function summarizeRescan(
  files: ReadonlyArray<FileStat & { path: string }>,
  knownAs: (f: FileStat & { path: string }) => KnownAs,
  now: number,
  settleMs: number,
  /** Why a file is never queued (empty, a second copy of a card), or undefined when it would be. */
  skipOf: (f: FileStat & { path: string }) => SkipReason | undefined = () => undefined,
  /** Skips the walk found that are not files (links to nowhere), by reason. */
  alsoSkipped: Partial<Record<SkipReason, number>> = {},
): RescanSummary {
  const s: Omit<RescanSummary, 'at' | 'text'> = { newFiles: 0, inQueue: 0, alreadyProcessed: 0, stillCopying: 0 };
  const skipped: Partial<Record<SkipReason, number>> = { ...alsoSkipped };
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
  const why = COUNT_ORDER.flatMap((r) => (s.skipped?.[r] ? [countWords(r, s.skipped[r])] : []));
  const skipped = COUNT_ORDER.reduce((n, r) => n + (s.skipped?.[r] ?? 0), 0);
  const found = s.newFiles + skipped;
  // New files that were skipped are said with why, so the count says what was queued: "4 new
  // files — 1 queued, 2 second copies, 1 empty", never "4 new files" that queued nothing.
  const news =
    skipped === 0
      ? s.newFiles > 0
        ? count(s.newFiles, 'new file', 'new files')
        : ''
      : `${count(found, 'new file', 'new files')} — ${[`${s.newFiles} queued`, ...why].join(', ')}`;
  const rest = [
    s.inQueue > 0 ? `${s.inQueue} already in the queue` : '',
    s.alreadyProcessed > 0 ? `${s.alreadyProcessed} already processed` : '',
    s.stillCopying > 0 ? `${s.stillCopying} still copying` : '',
  ].filter(Boolean);
  const text =
    skipped > 0 && rest.length > 0 ? `${news}; ${rest.join(', ')}` : [news, ...rest].filter(Boolean).join(', ');
  return text === '' ? 'No media files found.' : `${text}.`.replace(/^./, (c) => c.toUpperCase());
}
