// The selects of the current list, as the review and the string-out screen show them: which list
// is current (kept for the next time), the list as main last answered it, and each change sent to
// main (which saves it before answering). A pick shows at once, before main answers (`pending`),
// so marking a bite while the clip plays costs no wait; main's answer then replaces it.
import {
  DEFAULT_SELECTS_LIST,
  type Events,
  type Result,
  type SelectAddedView,
  type SelectEdit,
  type SelectListSummary,
  type SelectListView,
  type SelectsExportParams,
  type SelectsExportView,
  type SelectSource,
  type SelectView,
} from '../../../../preload/contract';
import { call, on } from '../api';
import { SPACER_LIMITS } from '../../../../common/string-out-formats';
import { rowsOfView } from './string-out-rows';

export interface SelectsPort {
  lists(): Promise<Result<SelectListSummary[]>>;
  open(list: string): Promise<Result<SelectListView>>;
  add(list: string, jobId: string, from: number, to: number): Promise<Result<SelectListView>>;
  addFrom(list: string, jobId: string, from: SelectSource): Promise<Result<SelectAddedView>>;
  edit(list: string, edit: SelectEdit): Promise<Result<SelectListView>>;
  export(params: SelectsExportParams): Promise<Result<SelectsExportView>>;
  onChanged(cb: (e: Events['selects:changed']) => void): () => void;
}

export const selectsBridge: SelectsPort = {
  lists: () => call('selects:lists'),
  open: (list) => call('selects:open', { list }),
  add: (list, jobId, from, to) => call('selects:add', { list, jobId, from, to }),
  addFrom: (list, jobId, from) => call('selects:addFrom', { list, jobId, from }),
  edit: (list, edit) => call('selects:edit', { list, edit }),
  export: (params) => call('selects:export', params),
  onChanged: (cb) => on('selects:changed', cb),
};

const LIST_KEY = 'sluice-selects-list';

/** A pick on its way to main: shown at once as a highlight. */
export interface PendingSelect {
  jobId: string;
  words: [number, number];
}

export class SelectsState {
  /** The list picks go to. */
  listName = $state(DEFAULT_SELECTS_LIST);
  view = $state<SelectListView | null>(null);
  lists = $state<SelectListSummary[]>([]);
  pending = $state<PendingSelect[]>([]);
  busy = $state(false);
  /** The last failure, in words, until the next change succeeds. */
  error = $state<string | null>(null);

  constructor(
    private readonly port: SelectsPort,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = globalThis.localStorage ?? null,
  ) {
    this.reread();
  }

  /** The current list as last chosen in any view (a screen that stays open under the review). */
  reread(): void {
    const kept = this.storage?.getItem(LIST_KEY)?.trim();
    if (kept && kept !== this.listName) {
      this.listName = kept;
      this.view = null;
    }
  }

  /** Follows changes from any window; returns the unsubscribe. */
  subscribe(): () => void {
    return this.port.onChanged((e) => {
      if (e.list.toLowerCase() === this.listName.toLowerCase() && e.revision !== this.view?.revision) void this.load();
      void this.loadLists();
    });
  }

  async load(): Promise<void> {
    const asked = this.listName;
    const r = await this.port.open(asked);
    if (asked !== this.listName) return;
    if (r.ok) {
      this.view = r.value;
      this.error = null;
    } else this.error = r.error.message;
  }

  async loadLists(): Promise<void> {
    const r = await this.port.lists();
    if (r.ok) this.lists = r.value;
  }

  /** Makes another list current (made by its first select). */
  async choose(name: string): Promise<void> {
    const n = name.trim();
    if (!n || n === this.listName) return;
    this.listName = n;
    this.storage?.setItem(LIST_KEY, n);
    this.view = null;
    await this.load();
  }

  /** The selects of one clip, placed on its words (what the review highlights), and those on their way. */
  rangesOf(jobId: string): Array<{ id: string | null; words: [number, number]; colour: string }> {
    const saved = (this.view?.selects ?? [])
      .filter((s) => s.jobId === jobId && s.words)
      .map((s) => ({ id: s.id, words: s.words!, colour: s.colour }));
    const waiting = this.pending
      .filter((p) => p.jobId === jobId)
      .map((p) => ({ id: null, words: p.words, colour: 'Green' }));
    return [...saved, ...waiting];
  }

  private answered(r: Result<SelectListView>): boolean {
    if (!r.ok) {
      this.error = r.error.message;
      return false;
    }
    // The answer to a list no longer current (chosen meanwhile) is not shown.
    if (r.value.name.toLowerCase() === this.listName.toLowerCase()) this.view = r.value;
    this.error = null;
    return true;
  }

  /** Words [from, to) of the clip, at the end of the current list; shown before main answers. */
  async add(jobId: string, from: number, to: number): Promise<boolean> {
    const p: PendingSelect = { jobId, words: [from, to] };
    this.pending = [...this.pending, p];
    try {
      const ok = this.answered(await this.port.add(this.listName, jobId, from, to));
      if (ok) void this.loadLists();
      return ok;
    } finally {
      this.pending = this.pending.filter((x) => x !== p);
    }
  }

  /**
   * The words a search hit's moment, a marker, a chapter or a pull quote names (main finds them),
   * at the end of the current list; the select added, to name and to undo, or null (`error` says why).
   */
  async addFrom(jobId: string, from: SelectSource): Promise<SelectView | null> {
    const r = await this.port.addFrom(this.listName, jobId, from);
    if (!this.answered(r.ok ? { ok: true, value: r.value.list } : r)) return null;
    void this.loadLists();
    return r.ok ? r.value.added : null;
  }

  /** Undo of an add: the select goes from the list it was added to, even when another list is current now. */
  unadd(list: string, id: string): Promise<boolean> {
    return this.#queued(async () => this.answered(await this.port.edit(list, { kind: 'remove', id })));
  }

  /**
   * Changes go to main one after another, in the order they were asked: a key pressed while the
   * last change is on its way is sent once it is answered, never dropped (`busy` says one is).
   */
  #chain: Promise<unknown> = Promise.resolve();
  #inFlight = 0;

  #queued<T>(f: () => Promise<T>): Promise<T> {
    this.#inFlight++;
    this.busy = true;
    const run = this.#chain.then(f).finally(() => {
      if (--this.#inFlight === 0) this.busy = false;
    });
    this.#chain = run.catch(() => undefined);
    return run;
  }

  edit(edit: SelectEdit): Promise<boolean> {
    return this.#queued(async () => this.answered(await this.port.edit(this.listName, edit)));
  }

  /** The rows (bites, gaps and title cards) in order. */
  get rows() {
    return this.view ? rowsOfView(this.view) : [];
  }

  /** Deletes a bite, gap or title card; the answer says where it was among the rows, for Undo (`restore`). */
  async remove(id: string): Promise<{ index: number } | null> {
    const index = this.rows.findIndex((s) => s.id === id);
    if (index < 0) return null;
    return (await this.edit({ kind: 'remove', id })) ? { index } : null;
  }

  restore(id: string, index: number): Promise<boolean> {
    return this.edit({ kind: 'restore', id, index });
  }

  /** One place up or down; false at either end. */
  move(id: string, by: -1 | 1): Promise<boolean> {
    // Where it goes is read when its turn comes, after the moves asked before it.
    return this.#queued(async () => {
      const rows = this.rows;
      const i = rows.findIndex((s) => s.id === id);
      const to = i + by;
      if (i < 0 || to < 0 || to >= rows.length) return false;
      return this.answered(await this.port.edit(this.listName, { kind: 'move', id, index: to }));
    });
  }

  /** A gap (default 2 s) after row `after` (absent: at the end); the answer is the new row's id. */
  addGap(after?: string, ms: number = SPACER_LIMITS.gapMs): Promise<string | null> {
    return this.#added({ kind: 'addGap', ms, ...(after ? { after } : {}) });
  }

  /** A title card (default 3 s) after row `after` (absent: at the end); the answer is the new row's id. */
  addTitle(text: string, after?: string, ms: number = SPACER_LIMITS.titleMs): Promise<string | null> {
    return this.#added({ kind: 'addTitle', text, ms, ...(after ? { after } : {}) });
  }

  async #added(edit: SelectEdit): Promise<string | null> {
    const before = (this.view?.spacers ?? []).map((s) => s.id);
    if (!(await this.edit(edit))) return null;
    return this.view?.spacers?.find((s) => !before.includes(s.id))?.id ?? null;
  }

  exportList(params: Omit<SelectsExportParams, 'list'>): Promise<Result<SelectsExportView>> {
    return this.port.export({ ...params, list: this.listName });
  }
}
