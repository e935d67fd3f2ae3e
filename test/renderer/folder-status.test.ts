import { describe, expect, it } from 'vitest';
import type { FolderStatusView, RescanSummaryView } from '../../preload/contract.js';
import { replaceStatus } from '../../renderer/src/lib/folder-status.js';

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
