import { describe, expect, it } from 'vitest';
import type { FolderStatusView, RescanSummaryView } from '../../preload/contract.js';
import { replaceStatus, withNewestRescans } from '../../renderer/src/lib/folder-status.js';

const summary = (at: number, alreadyProcessed: number): RescanSummaryView => ({
  at,
  newFiles: 0,
  inQueue: 0,
  alreadyProcessed,
  stillCopying: 0,
  text: `${alreadyProcessed} already processed.`,
});
const status = (folderId: string, state: FolderStatusView['state'], lastRescan?: RescanSummaryView) => ({
  folderId,
  path: `/media/${folderId}`,
  state,
  since: 1,
  ...(lastRescan ? { lastRescan } : {}),
});

describe('replaceStatus', () => {
  it('keeps the Rescan summary when a status sent during the Rescan arrives after its answer', () => {
    const answered = [status('a', 'watching', summary(200, 1)), status('b', 'watching')];
    const late = replaceStatus(answered, status('a', 'scanning'));
    expect(late.find((s) => s.folderId === 'a')).toMatchObject({ state: 'scanning', lastRescan: summary(200, 1) });
    expect(late.find((s) => s.folderId === 'b')).toEqual(status('b', 'watching'));
    expect(late).toHaveLength(2);
  });

  it('keeps the newer summary of two, in either order', () => {
    const older = summary(100, 0);
    const newer = summary(200, 1);
    const a = replaceStatus([status('a', 'watching', newer)], status('a', 'watching', older));
    expect(a[0]?.lastRescan).toEqual(newer);
    const b = replaceStatus([status('a', 'watching', older)], status('a', 'watching', newer));
    expect(b[0]?.lastRescan).toEqual(newer);
  });

  it('adds a folder it has not seen', () => {
    expect(replaceStatus([], status('c', 'watching'))).toEqual([status('c', 'watching')]);
  });
});

describe('withNewestRescans', () => {
  it('keeps a Rescan summary when a whole list asked for before the Rescan answers after it', () => {
    // Settings loading (statuses beside the slower catalogue) while the editor clicked Rescan.
    const shown = [status('a', 'watching', summary(300, 4)), status('b', 'watching')];
    const stale = [status('a', 'watching'), status('b', 'paused')];
    const merged = withNewestRescans(stale, shown);
    expect(merged).toEqual([status('a', 'watching', summary(300, 4)), status('b', 'paused')]);
  });

  it('takes the list’s own summary when it is the newer, and drops folders the list no longer has', () => {
    const shown = [status('a', 'watching', summary(100, 0)), status('gone', 'watching', summary(100, 0))];
    const merged = withNewestRescans([status('a', 'watching', summary(200, 2))], shown);
    expect(merged).toEqual([status('a', 'watching', summary(200, 2))]);
  });
});
