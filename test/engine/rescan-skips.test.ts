// A Rescan's count says what was queued: new files never queued (empty, a second copy of a clip,
// a link to nowhere, not whole, ignored) are counted with their reason, beside what went to the queue.
import { expect, it } from 'vitest';
import { describeRescan, summarizeRescan } from '../../main/engine/rescan-summary.js';

const NOW = 1_800_000_000_000;
const file = (name: string, size: number): { path: string; size: number; mtimeMs: number } => ({
  path: `/card/${name}`,
  size,
  mtimeMs: NOW - 60_000,
});

it('says "4 new files — 1 queued, 2 second copies, 1 empty", the walkthrough\'s rescan that queued nothing', () => {
  const files = [file('a.mp4', 10), file('empty.wav', 0), file('copy/C0001.MP4', 10), file('copy/C0002.MP4', 10)];
  const summary = summarizeRescan(
    files,
    () => 'new',
    NOW,
    2000,
    (f) => (f.size === 0 ? 'empty' : f.path.includes('/copy/') ? 'second-copy' : undefined),
  );
  expect(summary).toMatchObject({
    newFiles: 1,
    skipped: { empty: 1, 'second-copy': 2 },
    text: '4 new files — 1 queued, 2 second copies, 1 empty.',
  });
});

it('counts links to nowhere the walk found beside the files, and keeps the rest after a semicolon', () => {
  const summary = summarizeRescan(
    [file('a.mp4', 10), file('done.mp4', 10)],
    (f) => (f.path.endsWith('done.mp4') ? 'done' : 'new'),
    NOW,
    2000,
    () => undefined,
    { 'dangling-link': 2 },
  );
  expect(summary.text).toBe('3 new files — 1 queued, 2 links to nowhere; 1 already processed.');
});

it('nothing queued is said as such: "2 new files — 0 queued, 1 not whole, 1 ignored"', () => {
  expect(
    describeRescan({
      newFiles: 0,
      inQueue: 0,
      alreadyProcessed: 0,
      stillCopying: 0,
      skipped: { 'never-whole': 1, ignored: 1 },
    }),
  ).toBe('2 new files — 0 queued, 1 not whole, 1 ignored.');
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

it("counts a card's proxies and single inputs the card rules left as such, not as queued", () => {
  const summary = summarizeRescan(
    [file('CLIP/C0001.MP4', 10), file('SUB/C0001S03.MP4', 10)],
    () => 'new',
    NOW,
    2000,
    (f) => (f.path.includes('/SUB/') ? 'card-rule' : undefined),
  );
  expect(summary.text).toBe('2 new files — 1 queued, 1 skipped by the card rules.');
});
