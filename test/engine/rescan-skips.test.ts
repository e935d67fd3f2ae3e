// A Rescan's count says what will be queued: files never queued (empty, a second copy of a card)
// are counted apart with their reason, not as new files.
import { expect, it } from 'vitest';
import { summarizeRescan } from '../../main/engine/rescan-summary.js';

const NOW = 1_800_000_000_000;
const file = (name: string, size: number): { path: string; size: number; mtimeMs: number } => ({
  path: `/card/${name}`,
  size,
  mtimeMs: NOW - 60_000,
});

it('counts empty files and second copies of a card as skipped, with why, and the rest as new', () => {
  const files = [file('a.mp4', 10), file('b.mp4', 10), file('empty.wav', 0), file('copy/C0001.MP4', 10)];
  const summary = summarizeRescan(
    files,
    () => 'new',
    NOW,
    2000,
    (f) => (f.size === 0 ? 'empty' : f.path.includes('/copy/') ? 'second copy of a card' : undefined),
  );
  expect(summary).toMatchObject({
    newFiles: 2,
    skipped: { empty: 1, 'second copy of a card': 1 },
    text: '2 new files, 2 skipped (1 empty, 1 second copy of a card).',
  });
});

it('a file already known is counted as such, whatever would skip it', () => {
  const summary = summarizeRescan(
    [file('done.wav', 0)],
    () => 'done',
    NOW,
    2000,
    () => 'empty',
  );
  expect(summary).toMatchObject({ alreadyProcessed: 1, newFiles: 0, text: '1 already processed.' });
  expect(summary.skipped).toBeUndefined();
});
