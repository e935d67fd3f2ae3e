// History: every job ever plus the service's own streams, fetched from main one page at a time.
// The list asks for the pages its visible rows fall in; a filter change bumps a generation number
// so answers to an older query are dropped instead of mixing into the new one.
/* eslint-disable svelte/prefer-svelte-reactivity --
   Maps and Sets here are values of $state.raw fields: each change builds a new one and replaces the
   field (house style), so a reactive SvelteMap/SvelteSet would only add overhead. */
import type {
  BridgeError,
  CaptionPresetName,
  ComponentsView,
  HistoryEntry,
  HistoryPage,
  HistoryQuery,
  HistorySortKey,
  JobState,
  Params,
  ResultFormat,
  ReviewWorkView,
} from '../../../../preload/contract';
import { call } from '../api';
import { app } from './app.svelte';

const PAGE_SIZE = 200;

export interface HistoryFilters {
  search: string;
  states: JobState[];
  templateIds: string[];
  folderIds: string[];
  /** Computers that processed the file (team mode). */
  computers: string[];
  /** `<input type="date">` values; empty = open-ended. */
  from: string;
  to: string;
  sort: { by: HistorySortKey; dir: 'asc' | 'desc' };
  includeExternal: boolean;
}

const EMPTY: HistoryFilters = {
  search: '',
  states: [],
  templateIds: [],
  folderIds: [],
  computers: [],
  from: '',
  to: '',
  sort: { by: 'created', dir: 'desc' },
  includeExternal: true,
};

class HistoryState {
  #filters = $state.raw<HistoryFilters>(EMPTY);
  #pages = $state.raw<Map<number, HistoryEntry[]>>(new Map());
  #total = $state(0);
  #external = $state.raw<HistoryPage['external'] | null>(null);
  #computers = $state.raw<string[]>([]);
  #loading = $state(false);
  #loaded = $state(false);
  #error = $state.raw<BridgeError | null>(null);
  #selectedEntry = $state.raw<HistoryEntry | null>(null);
  #busy = $state.raw<Set<string>>(new Set());
  #inFlight = new Set<number>();
  #generation = 0;
  #searchTimer: ReturnType<typeof setTimeout> | null = null;

  get filters(): HistoryFilters {
    return this.#filters;
  }
  get total(): number {
    return this.#total;
  }
  /** Every computer History names as having processed a file (whatever the filter). */
  get computers(): string[] {
    return this.#computers;
  }
  get external(): HistoryPage['external'] | null {
    return this.#external;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get loaded(): boolean {
    return this.#loaded;
  }
  get error(): BridgeError | null {
    return this.#error;
  }
  get selected(): HistoryEntry | null {
    return this.#selectedEntry;
  }
  get filtered(): boolean {
    const f = this.#filters;
    return !!(
      f.search ||
      f.states.length ||
      f.templateIds.length ||
      f.folderIds.length ||
      f.computers.length ||
      f.from ||
      f.to
    );
  }
  isBusy(key: string): boolean {
    return this.#busy.has(key);
  }

  entryAt(index: number): HistoryEntry | undefined {
    return this.#pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
  }

  select(entry: HistoryEntry | null): void {
    this.#selectedEntry = entry;
  }

  setFilters(patch: Partial<HistoryFilters>): void {
    this.#filters = { ...this.#filters, ...patch };
    if ('search' in patch) {
      // Typing should not send a request per keystroke.
      if (this.#searchTimer) clearTimeout(this.#searchTimer);
      this.#searchTimer = setTimeout(() => void this.reload(), 220);
    } else void this.reload();
  }
  resetFilters(): void {
    this.#filters = { ...EMPTY, sort: this.#filters.sort };
    void this.reload();
  }

  #query(page: number, refresh = false): HistoryQuery {
    const f = this.#filters;
    const dayStart = (v: string): number => new Date(`${v}T00:00:00`).getTime();
    return {
      ...(f.search.trim() ? { search: f.search.trim() } : {}),
      ...(f.states.length ? { states: f.states } : {}),
      ...(f.templateIds.length ? { templateIds: f.templateIds } : {}),
      ...(f.folderIds.length ? { folderIds: f.folderIds } : {}),
      ...(f.computers.length ? { computers: f.computers } : {}),
      ...(f.from ? { from: dayStart(f.from) } : {}),
      // The "to" day is inclusive: up to the start of the next day.
      ...(f.to ? { to: dayStart(f.to) + 86_400_000 - 1 } : {}),
      sort: f.sort,
      includeExternal: f.includeExternal,
      page,
      pageSize: PAGE_SIZE,
      ...(refresh ? { refresh: true } : {}),
    };
  }

  async #fetch(page: number, generation: number, refresh = false): Promise<void> {
    if (this.#inFlight.has(page)) return;
    this.#inFlight.add(page);
    const res = await call('history:list', this.#query(page, refresh));
    this.#inFlight.delete(page);
    if (generation !== this.#generation) return;
    if (!res.ok) {
      this.#error = res.error;
      return;
    }
    this.#error = null;
    const next = new Map(this.#pages);
    next.set(page, res.value.entries);
    this.#pages = next;
    this.#total = res.value.total;
    this.#external = res.value.external;
    // Replaced only when it changed: the screen's select is not rebuilt on every page.
    if (res.value.computers.join('\n') !== this.#computers.join('\n')) this.#computers = res.value.computers;
    const key = this.#selectedEntry?.key;
    const sel = key && res.value.entries.find((e) => e.key === key);
    if (sel) this.#selectedEntry = sel;
  }

  /** `refresh`: also read the service's stream list again (screen opened, Refresh button). */
  async reload(opts: { refresh?: boolean } = {}): Promise<void> {
    this.#generation += 1;
    this.#inFlight.clear();
    this.#loading = true;
    const gen = this.#generation;
    const keep = this.#pages.size > 0;
    if (!keep) this.#pages = new Map();
    await this.#fetch(0, gen, opts.refresh === true);
    if (gen !== this.#generation) return;
    // Drop pages of the previous query only now, so the list does not flash empty while refetching.
    const first = this.#pages.get(0);
    this.#pages = first ? new Map([[0, first]]) : new Map();
    this.#loading = false;
    this.#loaded = true;
  }

  /** Called by the list with the indices it shows. */
  loadRange(start: number, end: number): void {
    const gen = this.#generation;
    for (let p = Math.floor(start / PAGE_SIZE); p <= Math.floor(end / PAGE_SIZE); p++) {
      if (!this.#pages.has(p) && p * PAGE_SIZE < this.#total) void this.#fetch(p, gen);
    }
  }

  async #withBusy<T>(key: string, task: () => Promise<T>): Promise<T> {
    this.#busy = new Set(this.#busy).add(key);
    try {
      return await task();
    } finally {
      const next = new Set(this.#busy);
      next.delete(key);
      this.#busy = next;
    }
  }

  /** Component states read from the service for the detail panel, by stream id. */
  #components = $state.raw<Record<string, ComponentsView>>({});
  componentsFor(streamId: string | undefined): ComponentsView | undefined {
    return streamId ? this.#components[streamId] : undefined;
  }
  async loadComponents(streamId: string): Promise<void> {
    const r = await call('history:components', { streamId });
    // A stream the service no longer holds simply shows none.
    if (r.ok) this.#components = { ...this.#components, [streamId]: r.value };
  }

  /**
   * `formats`, `captionPreset`: what to write for a local job (its own when absent); another layout
   * goes beside the main captions unless `replace`.
   */
  async reexport(
    entry: HistoryEntry,
    formats?: ResultFormat[],
    captionPreset?: CaptionPresetName,
    replace?: boolean,
  ): Promise<void> {
    const params = entry.jobId
      ? {
          jobId: entry.jobId,
          ...(formats ? { formats } : {}),
          ...(captionPreset ? { captionPreset, ...(replace ? { replaceCaptions: true } : {}) } : {}),
        }
      : { streamId: entry.streamId ?? '' };
    const v = await this.#withBusy(entry.key, async () =>
      app.report(await call('history:reexport', params), 'Re-export failed'),
    );
    if (!v) return;
    const saved = `Saved ${v.results.length} result ${v.results.length === 1 ? 'file' : 'files'} again`;
    const why = v.fromKept === 'gone' ? 'no longer holds this stream' : 'cannot be reached';
    app.notify('ok', v.fromKept ? `${saved} from the copy kept on this computer (the service ${why}).` : `${saved}.`);
    if (this.#selectedEntry?.key === entry.key)
      this.#selectedEntry = { ...entry, results: v.results, ...(formats ? { formats } : {}) };
    await this.reload();
  }

  /** `language`: the languages chosen for the new run (none: detect); absent keeps the job's. */
  async rerun(entry: HistoryEntry, templateId?: string, params?: Params): Promise<void> {
    if (!entry.jobId) return;
    const jobId = entry.jobId;
    const v = await this.#withBusy(entry.key, async () =>
      app.report(
        await call('history:rerun', {
          jobId,
          ...(templateId ? { templateId } : {}),
          ...(params ? { params } : {}),
        }),
        'Could not re-run',
      ),
    );
    const first = v?.[0];
    if (first?.outcome === 'rejected') app.notify('danger', first.message);
    else if (first) app.notify('ok', 'Queued again. Follow it on the Queue screen.');
  }

  /** The review work a re-run would carry over (null when it cannot be read, or for another tool's stream). */
  async reviewWork(entry: HistoryEntry): Promise<ReviewWorkView | null> {
    if (!entry.jobId) return null;
    const r = await call('history:reviewWork', { jobId: entry.jobId });
    return r.ok ? r.value : null;
  }

  async cancelStream(entry: HistoryEntry): Promise<void> {
    if (!entry.streamId) return;
    const streamId = entry.streamId;
    const v = await this.#withBusy(entry.key, async () =>
      app.report(await call('history:cancelStream', { streamId }), 'Could not cancel the stream'),
    );
    if (v) app.notify('info', v.alreadyFinished ? 'The stream had already finished.' : 'Stream canceled.');
    await this.reload();
  }
}

export const history = new HistoryState();
