// selects:* handlers: the lists of selects the review picks into and the string-out screen shows,
// kept by the runtime's Selects (the same lists and export as `sluice selects`). A change is saved
// before it is answered and announced to every window (`selects:changed`).
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type {
  Channel,
  SelectAddedView,
  SelectEdit,
  SelectListView,
  SelectsExportView,
  TranscriptMediaView,
} from '../../preload/contract.js';
import type { ListEdit } from '../engine/selects/list-edits.js';
import { listNameProblem, SelectError } from '../engine/selects/selects.js';
import { rowsOf, type Row } from '../engine/selects/rows.js';
import { sourceName } from '../engine/media-link.js';
import { currentPath } from '../engine/source-path.js';
import { timecodeTextProblem } from '../../common/timecode.js';
import { BridgeFailure } from './errors.js';
import type { HandlerContext, RawHandlers } from './handler-context.js';
import { mediaView } from './handle-transcript.js';
import { emptyListView, selectListView } from './selects-view.js';

type SelectsChannels = Extract<Channel, `selects:${string}`>;

/** How many deleted selects each list keeps for Undo (the renderer names them by id). */
const UNDO_DEPTH = 50;

const refusal = (field: string, message: string): BridgeFailure =>
  new BridgeFailure('VALIDATION', message, { fields: [{ path: field, message }] });

async function refusing<T>(field: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof SelectError) throw refusal(field, e.message);
    throw e;
  }
}

export function selectsHandlers(ctx: HandlerContext<'selects' | 'queue'>): RawHandlers<SelectsChannels> {
  const { selects, queue, publish } = ctx;
  /** Deleted rows, by id, so Undo puts back exactly what was there (never what a page says it was). */
  const removed = new Map<string, Row>();
  const fileNameOf = (jobId: string): string | undefined => {
    const job = queue.job(jobId);
    return job ? sourceName(job) : undefined;
  };
  const named = (list: string): string => {
    const problem = listNameProblem(list);
    if (problem) throw refusal('list', problem);
    return list.trim();
  };
  const view = async (list: string): Promise<SelectListView> => {
    const name = named(list);
    if (!(await selects.store.load(name))) return emptyListView(name);
    const v = selectListView(await refusing('list', () => selects.open(name)), fileNameOf);
    return { ...v, media: await mediaOf(v) };
  };
  /** Each placed clip's source as the review's player loads it, so the screen plays its bites. */
  const mediaOf = async (v: SelectListView): Promise<Record<string, TranscriptMediaView>> => {
    const ids = [...new Set(v.selects.filter((s) => !s.missing).map((s) => s.jobId))];
    const jobs = ids.flatMap((id) => queue.job(id) ?? []);
    return Object.fromEntries(await Promise.all(jobs.map(async (j) => [j.id, await mediaView(j, ctx.platform)])));
  };
  const changed = async (list: string, revision: number): Promise<SelectListView> => {
    publish({ name: 'selects:changed', payload: { list, revision } });
    return view(list);
  };
  const toListEdit = (e: SelectEdit): ListEdit => {
    if (e.kind === 'addGap')
      return { kind: 'addSpacer', spacer: { id: randomUUID(), kind: 'gap', ms: e.ms }, after: e.after };
    if (e.kind === 'addTitle') {
      return { kind: 'addSpacer', spacer: { id: randomUUID(), kind: 'title', ms: e.ms, text: e.text }, after: e.after };
    }
    if (e.kind !== 'restore') return e;
    const select = removed.get(e.id);
    if (!select)
      throw refusal('edit', 'That select can no longer be put back (Sluice restarted since it was deleted).');
    return { kind: 'restore', select, index: e.index };
  };

  return {
    'selects:lists': () => selects.lists(),
    'selects:open': ({ list }) => view(list),
    'selects:add': async ({ list, jobId, from, to }) => {
      const name = named(list);
      const saved = await refusing('selects', () => selects.addWords(name, jobId, [from, to]));
      return changed(saved.name, saved.revision);
    },
    'selects:addFrom': async ({ list, jobId, from }): Promise<SelectAddedView> => {
      const name = named(list);
      const saved = await refusing('from', () => selects.addFrom(name, jobId, from));
      const view = await changed(saved.list.name, saved.list.revision);
      const added = view.selects.find((s) => s.id === saved.id);
      // Deleted by another window between the save and this answer: said as such, not as an add.
      if (!added) throw refusal('from', 'The select was deleted as it was added; add it again.');
      return { list: view, added };
    },
    'selects:edit': async ({ list, edit }) => {
      const name = named(list);
      const before = edit.kind === 'remove' ? await selects.store.load(name) : undefined;
      const saved = await refusing('edit', () => selects.edit(name, toListEdit(edit)));
      const gone = before && 'id' in edit ? rowsOf(before).find((s) => s.id === edit.id) : undefined;
      if (gone) {
        removed.set(gone.id, gone);
        while (removed.size > UNDO_DEPTH) removed.delete(removed.keys().next().value!);
      }
      if (edit.kind === 'restore') removed.delete(edit.id);
      return changed(saved.name, saved.revision);
    },
    'selects:export': async ({ list, formats, folder, timecode, handles }): Promise<SelectsExportView> => {
      const name = named(list);
      const start = timecode?.trim() || undefined;
      const problem = start === undefined ? null : timecodeTextProblem(start);
      if (problem) throw refusal('timecode', `The timeline starts at a timecode such as 01:00:00:00 (${problem}).`);
      const out = folder?.trim() ? folder.trim() : await besideFirstClip(name);
      if (!path.isAbsolute(out)) throw refusal('folder', 'Choose a whole folder path, such as /Users/me/Cuts.');
      const st = await stat(out).catch(() => null);
      if (!st?.isDirectory()) throw refusal('folder', `${out} is not a folder on this computer: choose another.`);
      const done = await refusing('selects', () =>
        selects.export(name, formats, out, {
          ...(start ? { start } : {}),
          ...(handles === undefined ? {} : { handles }),
        }),
      );
      const so = done.stringOut;
      return {
        folder: out,
        files: done.files,
        bites: so.bites.length,
        missing: so.missing.map(
          (m) => `${m.labels.map((l) => `“${l}”`).join(', ')}: ${m.reason}${m.path ? ` (${m.path})` : ''}`,
        ),
        notes: [...so.notes],
      };
    },
  };

  /** Where a list goes when no folder is chosen: beside its first clip that is still known. */
  async function besideFirstClip(list: string): Promise<string> {
    const l = await selects.store.load(list);
    for (const s of l?.selects ?? []) {
      const job = queue.job(s.jobId);
      if (job) return path.dirname(currentPath(job));
    }
    throw refusal('folder', 'Choose the folder to write the list into.');
  }
}
