// folders:* and templates:* handlers. A folder typed by hand (the browser has no folder dialog) is
// checked here: it must exist and be a directory before it is saved.
import { folderFileSystem } from '../adapters/watch/folder/file-system-kind.js';
import { sharedHint } from '../engine/file-system-kind.js';
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Channel, FieldError, WatchFolderView } from '../../preload/contract.js';
import type { Settings, WatchFolder } from '../engine/settings.js';
import { BridgeFailure, notFound, validation } from './errors.js';
import type { HandlerContext, RawHandlers } from './handler-context.js';
import { validateSettings } from './handle-settings.js';
import { templateCatalogueView, toFolderStatusViews } from './views.js';

type FolderChannels = Extract<Channel, `folders:${string}` | `templates:${string}`>;

/** `~` and `~/…` typed as a shell would read them: the home folder (a browser has no folder picker). */
export function expandHome(p: string, home = homedir()): string {
  return p === '~' || /^~[\\/]/.test(p) ? path.join(home, p.slice(1)) : p;
}

async function requireDirectory(typed: string, field = 'path'): Promise<string> {
  const p = expandHome(typed);
  if (!path.isAbsolute(p)) throw validation([{ path: field, message: 'Give the full path of the folder.' }]);
  const st = await stat(p).catch(() => undefined);
  if (!st) throw validation([{ path: field, message: `${p} does not exist.` }]);
  if (!st.isDirectory()) throw validation([{ path: field, message: `${p} is a file, not a folder.` }]);
  return path.resolve(p);
}

/** An output folder must be there when it is chosen (a drive not connected is not made on the system disk). */
async function outputDirOf(p: string | null | undefined): Promise<{ outputDir?: string | null }> {
  if (p === undefined) return {};
  return { outputDir: p === null || p.trim() === '' ? null : await requireDirectory(p.trim(), 'outputDir') };
}

/** Field errors of the whole settings, re-addressed to the folder form ("watchFolders.2.path" → "path"). */
function relativeTo(index: number, e: unknown): unknown {
  if (!(e instanceof BridgeFailure) || !e.extra.fields) return e;
  const prefix = `watchFolders.${index}.`;
  const fields: FieldError[] = e.extra.fields.map((f) =>
    f.path.startsWith(prefix) ? { ...f, path: f.path.slice(prefix.length) } : f,
  );
  return validation(fields);
}

/** A skip named by an id the folder no longer lists (taken meanwhile, gone, or not one to act on). */
const gone = (): BridgeFailure =>
  new BridgeFailure(
    'NOT_FOUND',
    "This file is no longer in the folder's list of skipped files: it was taken, changed or removed. The list shows it as it is now.",
  );

export function folderHandlers(
  ctx: HandlerContext<'connection' | 'folders' | 'queue' | 'settings' | 'templates' | 'updateSettings'>,
): RawHandlers<FolderChannels> {
  const { connection, folders, queue, settings, templates, platform } = ctx;
  const statuses = () => toFolderStatusViews(settings.get(), folders.statuses());
  const find = (id: string): WatchFolder => {
    const f = settings.get().watchFolders.find((x) => x.id === id);
    if (!f) throw notFound('This watch folder');
    return f;
  };

  /** Saves the folder list with `change` applied to it, validated as a whole. */
  const save = async (change: (list: WatchFolder[]) => unknown[], index: number): Promise<Settings> => {
    const current = settings.get();
    const catalogue = templates.current;
    let next: Settings;
    try {
      next = validateSettings({ ...current, watchFolders: change(current.watchFolders) }, catalogue);
    } catch (e) {
      throw relativeTo(index, e);
    }
    await ctx.updateSettings(() => next);
    await ctx.settingsChanged();
    return next;
  };

  return {
    'folders:pick': async () => {
      if (!platform.pickFolder) return { supported: false };
      const r = await platform.pickFolder();
      return r.canceled || !r.path
        ? { supported: true, canceled: true }
        : { supported: true, canceled: false, path: r.path };
    },
    'folders:add': async ({ folder }) => {
      const dir = await requireDirectory(folder.path);
      const current = settings.get().watchFolders;
      if (current.some((f) => path.resolve(f.path) === dir)) {
        throw validation([{ path: 'path', message: 'This folder is already watched.' }]);
      }
      const id = `folder-${randomUUID().slice(0, 8)}`;
      const out = await outputDirOf(folder.outputDir);
      const next = await save((list) => [...list, { ...folder, ...out, path: dir, id }], current.length);
      return next.watchFolders.find((f) => f.id === id) as WatchFolderView;
    },
    'folders:update': async ({ id, patch }) => {
      const old = find(id);
      const dir = patch.path !== undefined && patch.path !== old.path ? await requireDirectory(patch.path) : old.path;
      const out = patch.outputDir !== old.outputDir ? await outputDirOf(patch.outputDir) : {};
      const index = settings.get().watchFolders.findIndex((f) => f.id === id);
      const next = await save(
        (list) => list.map((f) => (f.id === id ? { ...f, ...patch, ...out, path: dir, id } : f)),
        index,
      );
      return next.watchFolders.find((f) => f.id === id) as WatchFolderView;
    },
    'folders:remove': async ({ id }) => {
      find(id);
      await save((list) => list.filter((f) => f.id !== id), -1);
      return null;
    },
    'folders:pause': async ({ id }) => {
      find(id);
      await folders.pause(id);
      return statuses();
    },
    'folders:resume': async ({ id }) => {
      find(id);
      await folders.resume(id);
      return statuses();
    },
    'folders:rescan': async ({ id }) => {
      if (id !== undefined) find(id);
      await folders.rescan(id);
      return statuses();
    },
    'folders:statuses': () => statuses(),
    'folders:retrySkipped': ({ folderId, id }) => {
      if (!folders.retrySkipped(folderId, id)) throw gone();
      return statuses();
    },
    'folders:ignoreSkipped': ({ folderId, id }) => {
      if (!folders.skips.ignore(folderId, id)) throw gone();
      return statuses();
    },
    'folders:unignoreSkipped': ({ folderId, id }) => {
      if (!folders.skips.unignore(folderId, id)) throw gone();
      return statuses();
    },
    'folders:fileSystem': async ({ path }) => {
      const kind = await folderFileSystem(expandHome(path));
      const hint = sharedHint(kind);
      return { ...kind, ...(hint ? { hint } : {}) };
    },
    'templates:list': async ({ refresh }) =>
      templateCatalogueView(await templates.get({ refresh: refresh === true }), connection.simulated),
    'templates:check': ({ templateId, params }) => queue.checkTemplate(templateId, params),
  };
}
