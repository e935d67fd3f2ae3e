// Settings, templates and watch-folder statuses. Forms keep their own draft and save it whole:
// main validates the entire patch and answers VALIDATION with per-field messages, which we keep
// keyed by dotted path so each message can sit next to its field.
import { folderName } from '../../../../common/link-destination.js';
import type {
  BridgeError,
  ConnectionTestView,
  ConnectionView,
  FolderInput,
  FolderStatusView,
  SkipView,
  Result,
  SettingsPatch,
  SettingsView,
  TemplateCatalogueView,
  TemplateView,
  WatchFolderView,
} from '../../../../preload/contract';
import { call, on } from '../api';
import { app } from './app.svelte';
import { replaceStatus, withNewestRescans } from '../folder-status';

export type FieldErrors = Record<string, string>;

/** Turns a failed save into field messages; errors without fields come back under ''. */
export function fieldErrors(error: BridgeError, prefix = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const f of error.fields ?? []) {
    const path = prefix && f.path.startsWith(prefix) ? f.path.slice(prefix.length) : f.path;
    out[path] = f.message;
  }
  if (!error.fields?.length) out[''] = error.message;
  return out;
}

/** The messages under one part of a form (`params.`), keyed relative to it, for the sub-form there. */
export function errorsUnder(errors: FieldErrors, prefix: string): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v]),
  );
}

export type SaveOutcome<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

function outcome<T>(res: Result<T>, prefix = ''): SaveOutcome<T> {
  return res.ok ? { ok: true, value: res.value } : { ok: false, errors: fieldErrors(res.error, prefix) };
}

class SettingsState {
  #view = $state.raw<SettingsView | null>(null);
  #templates = $state.raw<TemplateView[]>([]);
  #templatesNotice = $state.raw<string | undefined>(undefined);
  #statuses = $state.raw<FolderStatusView[]>([]);
  #loading = $state(true);
  #error = $state.raw<BridgeError | null>(null);
  #lastTest = $state.raw<ConnectionTestView | null>(null);
  #testing = $state(false);

  get view(): SettingsView | null {
    return this.#view;
  }
  get templates(): TemplateView[] {
    return this.#templates;
  }
  /** Why the account's templates are missing from the list (the service could not be read). */
  get templatesNotice(): string | undefined {
    return this.#templatesNotice;
  }
  get statuses(): FolderStatusView[] {
    return this.#statuses;
  }
  /** Files that stopped changing but are not whole, per folder: the Queue offers Retry and Ignore. */
  get notWhole(): Array<{ folderId: string; skips: NonNullable<FolderStatusView['skips']> }> {
    return this.#statuses.flatMap((st) => {
      const skips = (st.skips ?? []).filter((k) => k.reason === 'never-whole');
      return skips.length > 0 ? [{ folderId: st.folderId, skips }] : [];
    });
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): BridgeError | null {
    return this.#error;
  }
  get lastTest(): ConnectionTestView | null {
    return this.#lastTest;
  }
  get testing(): boolean {
    return this.#testing;
  }
  get folders(): WatchFolderView[] {
    return this.#view?.watchFolders ?? [];
  }

  template(id: string): TemplateView | undefined {
    return this.#templates.find((t) => t.id === id);
  }
  status(folderId: string): FolderStatusView | undefined {
    return this.#statuses.find((s) => s.folderId === folderId);
  }
  folderName(folderId: string): string {
    const f = this.folders.find((w) => w.id === folderId);
    return f ? folderName(f.path) : 'Removed folder';
  }

  async load(): Promise<void> {
    this.#loading = true;
    const [view, templates, statuses] = await Promise.all([
      call('settings:get'),
      call('templates:list'),
      call('folders:statuses'),
    ]);
    if (view.ok) this.#view = view.value;
    if (templates.ok) this.#setCatalogue(templates.value);
    if (statuses.ok) this.#statuses = withNewestRescans(statuses.value, this.#statuses);
    this.#error = !view.ok ? view.error : !templates.ok ? templates.error : null;
    this.#loading = false;
  }

  #setCatalogue(c: TemplateCatalogueView): void {
    this.#templates = c.templates;
    this.#templatesNotice = c.notice;
  }

  /** `refresh`: read the account's list from the service again (rather than the copy main keeps). */
  async reloadTemplates(refresh = false): Promise<void> {
    const res = await call('templates:list', refresh ? { refresh } : {});
    if (res.ok) this.#setCatalogue(res.value);
  }

  subscribe(): void {
    on('settings:changed', (v) => (this.#view = v));
    on('folder:status-changed', (s) => {
      this.#statuses = replaceStatus(this.#statuses, s);
    });
    // A new connection may make sandbox-only templates (un)available.
    on('connection:changed', () => void this.reloadTemplates(true));
  }

  #take(res: Result<SettingsView>): SaveOutcome<SettingsView> {
    if (res.ok) this.#view = res.value;
    return outcome(res);
  }

  async save(patch: SettingsPatch): Promise<SaveOutcome<SettingsView>> {
    const res = this.#take(await call('settings:update', { patch: $state.snapshot(patch) as SettingsPatch }));
    if (res.ok && patch.connection) {
      this.#lastTest = null;
      void this.reloadTemplates();
    }
    return res;
  }
  async setApiKey(apiKey: string): Promise<SaveOutcome<SettingsView>> {
    this.#lastTest = null;
    return this.#take(await call('settings:setApiKey', { apiKey }));
  }
  async clearApiKey(): Promise<SaveOutcome<SettingsView>> {
    this.#lastTest = null;
    return this.#take(await call('settings:clearApiKey'));
  }
  async setClientCredentials(clientId: string, clientSecret: string): Promise<SaveOutcome<SettingsView>> {
    this.#lastTest = null;
    return this.#take(await call('settings:setClientCredentials', { clientId, clientSecret }));
  }
  /**
   * Going live in one step from the sandbox: keeps the key (in the keychain, or until Sluice quits
   * where there is none), then switches the connection to the service. The key stays if the switch fails.
   */
  async goLive(apiKey: string, keep: 'store' | 'session'): Promise<SaveOutcome<SettingsView>> {
    const kept = keep === 'store' ? await this.setApiKey(apiKey) : await this.useSessionKey(apiKey);
    if (!kept.ok) return kept;
    return this.save({ connection: { mode: 'production', auth: 'apiKey' } });
  }

  /** Uses the key until Sluice quits; main keeps it in memory only. */
  async useSessionKey(apiKey: string): Promise<SaveOutcome<SettingsView>> {
    this.#lastTest = null;
    return this.#take(await call('settings:useSessionKey', { apiKey }));
  }
  /** Tests the key typed and the connection chosen on screen when given, else the saved ones. */
  async testConnection(apiKey?: string, connection?: ConnectionView): Promise<void> {
    this.#testing = true;
    const res = await call('settings:testConnection', {
      ...(apiKey ? { apiKey } : {}),
      ...(connection ? { connection } : {}),
    });
    this.#testing = false;
    if (res.ok) this.#lastTest = res.value;
    else
      this.#lastTest = {
        success: false,
        connection: '',
        message: res.error.message,
        ...(res.error.internalErrorName ? { internalErrorName: res.error.internalErrorName } : {}),
        ...(res.error.statusCode ? { statusCode: res.error.statusCode } : {}),
      };
  }

  // ---- watch folders ----

  async pickFolder(): Promise<{ supported: boolean; path?: string }> {
    const res = await call('folders:pick');
    if (!res.ok) {
      app.report(res);
      return { supported: false };
    }
    const v = res.value;
    if (!v.supported) return { supported: false };
    return v.canceled ? { supported: true } : { supported: true, path: v.path };
  }
  async addFolder(folder: FolderInput): Promise<SaveOutcome<WatchFolderView>> {
    const res = outcome(await call('folders:add', { folder: $state.snapshot(folder) as FolderInput }), 'folder.');
    if (res.ok) await this.#refreshStatuses();
    return res;
  }
  async updateFolder(id: string, patch: Omit<Partial<WatchFolderView>, 'id'>): Promise<SaveOutcome<WatchFolderView>> {
    const snap = $state.snapshot(patch) as Omit<Partial<WatchFolderView>, 'id'>;
    return outcome(await call('folders:update', { id, patch: snap }), 'patch.');
  }
  async removeFolder(id: string): Promise<void> {
    app.report(await call('folders:remove', { id }), 'Could not remove the folder');
    await this.#refreshStatuses();
  }
  async setFolderPaused(id: string, paused: boolean): Promise<void> {
    const v = app.report(await call(paused ? 'folders:pause' : 'folders:resume', { id }));
    if (v) this.#statuses = v;
  }
  async rescan(id?: string): Promise<void> {
    const v = app.report(await call('folders:rescan', id ? { id } : {}), 'Could not rescan');
    if (!v) return;
    this.#statuses = v;
    const found = v.filter((s) => id === undefined || s.folderId === id).flatMap((s) => s.lastRescan ?? []);
    if (found.length === 1 && found[0]) app.notify('info', `Rescan: ${found[0].text}`);
  }
  /** Retry of a file the folder left: looked at now, taken at once if whole, else said so again. */
  async retrySkipped(folderId: string, skip: SkipView): Promise<void> {
    const v = app.report(
      await call('folders:retrySkipped', { folderId, id: skip.id }),
      `Could not check ${skip.fileName}`,
    );
    if (!v) return;
    this.#statuses = v;
    app.notify('info', `Checking ${skip.fileName} again: it is queued at once if it is whole.`);
  }
  /** Ignore, with Undo in its notice (the folder's list offers Stop ignoring too). */
  async ignoreSkipped(folderId: string, skip: SkipView): Promise<void> {
    const v = app.report(
      await call('folders:ignoreSkipped', { folderId, id: skip.id }),
      `Could not ignore ${skip.fileName}`,
    );
    if (!v) return;
    this.#statuses = v;
    this.#ignoreToasts.set(
      skip.id,
      app.notify('ok', `${skip.fileName} is ignored until it changes.`, undefined, {
        action: { label: 'Undo', run: () => void this.unignoreSkipped(folderId, skip, true) },
        timeoutMs: 8000,
      }),
    );
  }
  /** Ignore's notice per file: its Undo goes once the ignore is undone another way (Stop ignoring). */
  #ignoreToasts = new Map<string, number>();
  async unignoreSkipped(folderId: string, skip: SkipView, undo = false): Promise<void> {
    const v = app.report(
      await call('folders:unignoreSkipped', { folderId, id: skip.id }),
      `Could not stop ignoring ${skip.fileName}`,
    );
    if (!v) return;
    this.#statuses = v;
    const toast = this.#ignoreToasts.get(skip.id);
    if (toast !== undefined) app.dismissToast(toast);
    this.#ignoreToasts.delete(skip.id);
    if (!undo) app.notify('info', `${skip.fileName} is reported again.`);
  }
  async #refreshStatuses(): Promise<void> {
    const res = await call('folders:statuses');
    if (res.ok) this.#statuses = withNewestRescans(res.value, this.#statuses);
  }
}

export const settings = new SettingsState();
