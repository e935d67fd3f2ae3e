// What an add to the Queue says afterwards: counts, not one notice per file; the first refusals by name.
import './browser-globals.js';
import { describe, expect, it } from 'vitest';
import type { AddOutcomeView } from '../../../preload/contract.js';
import { addNotices } from '../../../renderer/src/lib/state/queue-add.js';

const ok = (path: string, outcome: 'added' | 'already-queued' | 'already-done' | 'retried'): AddOutcomeView => ({
  path,
  outcome,
  jobId: path,
});
const refused = (path: string): AddOutcomeView => ({ path, outcome: 'rejected', message: `${path} is not media.` });

describe('add notices', () => {
  it('counts what was queued (retried included) and what was skipped', () => {
    expect(
      addNotices([ok('a', 'added'), ok('b', 'retried'), ok('c', 'already-queued'), ok('d', 'already-done')]),
    ).toEqual([
      { tone: 'ok', message: 'Queued 2 files.' },
      { tone: 'info', message: '2 already queued or done — skipped.' },
    ]);
    expect(addNotices([ok('a', 'added')], 'link')).toEqual([{ tone: 'ok', message: 'Queued 1 link.' }]);
    expect(addNotices([])).toEqual([]);
  });

  it('names the first three refusals with their paths and counts the rest', () => {
    const notices = addNotices(['a', 'b', 'c', 'd', 'e'].map(refused));
    expect(notices).toEqual([
      { tone: 'danger', message: 'a is not media.', detail: 'a' },
      { tone: 'danger', message: 'b is not media.', detail: 'b' },
      { tone: 'danger', message: 'c is not media.', detail: 'c' },
      { tone: 'danger', message: '2 more files were not queued.' },
    ]);
  });
});
