// Adding to the Queue: files dropped or picked, media links pasted. What became of each is told
// in a few notices (counted, the first refusals named), not one per file.
import type { LinkDestination } from '../../../../common/link-destination.js';
import type { AddOutcomeView, LinkDestinationsView } from '../../../../preload/contract';
import { call, pathForFile, uploadFiles } from '../api';
import { app, type Toast } from './app.svelte';

/** The notices for what an add did: queued and skipped counted, the first three refusals by name. */
export function addNotices(
  outcomes: AddOutcomeView[],
  noun: 'file' | 'link' = 'file',
): Array<{ tone: Toast['tone']; message: string; detail?: string }> {
  const notices: Array<{ tone: Toast['tone']; message: string; detail?: string }> = [];
  const added = outcomes.filter((o) => o.outcome === 'added' || o.outcome === 'retried').length;
  const skipped = outcomes.filter((o) => o.outcome === 'already-queued' || o.outcome === 'already-done').length;
  const rejected = outcomes.filter((o) => o.outcome === 'rejected');
  if (added) notices.push({ tone: 'ok', message: added === 1 ? `Queued 1 ${noun}.` : `Queued ${added} ${noun}s.` });
  if (skipped) notices.push({ tone: 'info', message: `${skipped} already queued or done — skipped.` });
  for (const r of rejected.slice(0, 3))
    if (r.outcome === 'rejected') notices.push({ tone: 'danger', message: r.message, detail: r.path });
  if (rejected.length > 3)
    notices.push({ tone: 'danger', message: `${rejected.length - 3} more files were not queued.` });
  return notices;
}

function summarise(outcomes: AddOutcomeView[], noun: 'file' | 'link' = 'file'): void {
  for (const n of addNotices(outcomes, noun)) app.notify(n.tone, n.message, n.detail);
}

/** Files dropped on the window: paths in Electron, an upload through the web bridge otherwise. */
export async function addFiles(files: File[]): Promise<void> {
  if (files.length === 0) return;
  const paths = files.map((f) => pathForFile(f)).filter((p): p is string => !!p);
  const res = paths.length === files.length ? await call('queue:add', { paths }) : await uploadFiles(files);
  const v = app.report(res, 'Could not queue the files');
  if (v) summarise(v);
}

/** What adding links answered: each link's outcome, or why their results folder cannot take them. */
export type AddLinksAnswer = { outcomes: AddOutcomeView[] } | { destinationProblem: string };

/**
 * Media links pasted in the Queue's dialog, their results to `destination` (checked by main before
 * anything is sent): what became of each, the destination's problem for the dialog to show, or
 * undefined when none was queued for another reason (the app said why).
 */
export async function addLinks(
  links: string[],
  force: boolean,
  destination?: LinkDestination,
): Promise<AddLinksAnswer | undefined> {
  const res = await call('queue:addLinks', {
    links,
    ...(force ? { force } : {}),
    ...(destination ? { destination } : {}),
  });
  const problem = res.ok ? undefined : res.error.fields?.find((f) => f.path === 'destination');
  if (problem) return { destinationProblem: problem.message };
  const v = app.report(res, 'Could not queue the links');
  if (!v) return undefined;
  // The dialog itself says which were refused and why; the toasts count what was queued.
  summarise(
    v.filter((o) => o.outcome !== 'rejected' && o.outcome !== 'already-done'),
    'link',
  );
  return { outcomes: v };
}

/** The places the Add-link dialog offers for the results; undefined when main could not say (told). */
export async function linkDestinations(): Promise<LinkDestinationsView | undefined> {
  return app.report(await call('queue:linkDestinations'), 'Could not list where link results can go');
}

/** The system's file picker; false where there is none (the browser: the page picks instead). */
export async function pickFiles(): Promise<boolean> {
  const res = await call('queue:pickFiles');
  const v = app.report(res);
  if (!v) return true;
  if (!v.supported) return false;
  if (!v.canceled && v.paths.length) {
    const added = app.report(await call('queue:add', { paths: v.paths }), 'Could not queue the files');
    if (added) summarise(added);
  }
  return true;
}
