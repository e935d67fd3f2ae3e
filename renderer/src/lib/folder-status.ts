// A watch folder's status as the screens keep it. Status events are published as the watcher moves
// (a Rescan restarts its walk), so one sent during a Rescan can arrive after the Rescan's own answer
// and carry no summary, or an older one: the newest summary is kept whatever the order.
import type { FolderStatusView } from '../../../preload/contract.js';

export function withNewestRescan(next: FolderStatusView, prev: FolderStatusView | undefined): FolderStatusView {
  const kept = prev?.lastRescan;
  if (!kept || (next.lastRescan && next.lastRescan.at >= kept.at)) return next;
  return { ...next, lastRescan: kept };
}

/** The list with `next` in place of its folder's earlier status. */
export function replaceStatus(list: readonly FolderStatusView[], next: FolderStatusView): FolderStatusView[] {
  const prev = list.find((s) => s.folderId === next.folderId);
  return [...list.filter((s) => s.folderId !== next.folderId), withNewestRescan(next, prev)];
}

/**
 * A whole list asked for earlier (settings loading beside the catalogue, a refresh) that may answer
 * after a Rescan's own: each folder keeps the newest summary of the two.
 */
export function withNewestRescans(
  list: readonly FolderStatusView[],
  prev: readonly FolderStatusView[],
): FolderStatusView[] {
  return list.map((s) =>
    withNewestRescan(
      s,
      prev.find((p) => p.folderId === s.folderId),
    ),
  );
}
