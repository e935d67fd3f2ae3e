// The Queue screen's state: every job main reports, the batch statistics, filters and selection.
// Note: main sends one event per job change (≤ 10/s per job); we coalesce them into one array
// replacement per animation frame so 10,000 rows cost one re-sort per frame, not one per event.
import type {
  CaptionPresetName,
  CopyingView,
  ElsewhereView,
  AddOutcomeView,
  BatchStats,
  BridgeError,
  ComponentsView,
  JobState,
  JobView,
  PauseView,
  QueueSnapshot,
  QueueStats,
  ResultFormat,
  MoveDirection,
} from '../../../../preload/contract';
import { ACTIVE_STATES } from '../../../../preload/contract';
import { call, downloadResult, on, pathForFile, platform, uploadFiles } from '../api';
import { app } from './app.svelte';

export type StateFilter = 'all' | 'active' | 'queued' | 'completed' | 'failed' | 'canceled';
export const STATE_FILTERS: ReadonlyArray<{ id: StateFilter; label: string; states: JobState[] }> = [
  { id: 'all', label: 'All', states: [] },
  { id: 'active', label: 'In progress', states: [...ACTIVE_STATES] },
  { id: 'queued', label: 'Queued', states: ['queued'] },
  { id: 'completed', label: 'Completed', states: ['completed'] },
  { id: 'failed', label: 'Failed', states: ['failed', 'expired'] },
  { id: 'canceled', label: 'Canceled', states: ['canceled'] },
];

/** How long a removed job can be brought back before main is told. */
const UNDO_MS = 6000;

/** Main's queue order (the engine decides it; each view carries its place). */
export function compareJobs(a: JobView, b: JobView): number {
  return a.position - b.position;
}

class QueueState {
  #jobs = $state.raw<JobView[]>([]);
  #copying = $state.raw<CopyingView[]>([]);
  #copyingTotal = $state(0);
  #elsewhere = $state.raw<ElsewhereView[]>([]);
  #stats = $state.raw<QueueStats | null>(null);
  #loading = $state(true);
  #error = $state.raw<BridgeError | null>(null);
  #stateFilter = $state<StateFilter>('all');
  #folderFilter = $state<string>('all');
  #selectedId = $state<string | null>(null);
  #detailOpen = $state(false);
  #pending = new Map<string, JobView | null>();
  /** Numbers that arrived with job changes wait for them, so rows and header change in one frame. */
  #pendingStats: QueueStats | null = null;
  /** When the stats on screen were computed (the estimate counts down from there). */
  #statsAt = $state(Date.now());
  /** The last finished batch, kept on screen until the user dismisses it. */
  #summary = $state.raw<BatchStats | null>(null);
  #dismissedBatch = 0;
  /** Components read on demand for the detail panel (the engine reads them only on failure). */
  #components = $state.raw<Record<string, ComponentsView | null>>({});
  #flushScheduled = false;
  /** Jobs removed from the list but not yet sent to main: Undo brings them back. */
  #removing = $state.raw<ReadonlySet<string>>(new Set());
  #undo: Array<{ id: string; timer: ReturnType<typeof setTimeout>; toast: number }> = [];
  /** Cancels asked for and not yet sent to main: Undo in their notice keeps the job running. */
  #cancels = new Map<string, { timer: ReturnType<typeof setTimeout>; toast: number }>();
  /** Moves run one after another per job; after a refusal the rest are dropped (one notice, not one per key). */
  #moves = new Map<string, Promise<boolean>>();
  #refused = new Set<string>();
  #live = $derived(this.#removing.size ? this.#jobs.filter((j) => !this.#removing.has(j.id)) : this.#jobs);

  #visible = $derived.by(() => {
    const states = STATE_FILTERS.find((f) => f.id === this.#stateFilter)?.states ?? [];
    const folder = this.#folderFilter;
    return this.#live.filter(
      (j) =>
        (states.length === 0 || states.includes(j.state)) &&
        (folder === 'all' ||
          (folder === 'manual'
            ? j.origin.kind === 'manual'
            : j.origin.kind === 'watch' && j.origin.folderId === folder)),
    );
  });
  #selected = $derived(this.#live.find((j) => j.id === this.#selectedId) ?? null);
  // Counted from the rows themselves so the filter tabs never disagree with the list (the stats
  // event from main is throttled to once a second).
  #counts = $derived.by(() => {
    const c: Partial<Record<JobView['state'], number>> = {};
    for (const j of this.#live) c[j.state] = (c[j.state] ?? 0) + 1;
    return c;
  });
  #selectedIndex = $derived(this.#visible.findIndex((j) => j.id === this.#selectedId));

  get jobs(): JobView[] {
    return this.#live;
  }
  get visible(): JobView[] {
    return this.#visible;
  }
  get stats(): QueueStats | null {
    return this.#stats;
  }
  get statsAt(): number {
    return this.#statsAt;
  }
  get summary(): BatchStats | null {
    return this.#summary;
  }
  dismissSummary(): void {
    if (this.#summary) this.#dismissedBatch = this.#summary.id;
    this.#summary = null;
  }
  get pause(): PauseView | undefined {
    return this.#stats?.pause;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): BridgeError | null {
    return this.#error;
  }
  get stateFilter(): StateFilter {
    return this.#stateFilter;
  }
  set stateFilter(f: StateFilter) {
    this.#stateFilter = f;
  }
  get folderFilter(): string {
    return this.#folderFilter;
  }
  set folderFilter(f: string) {
    this.#folderFilter = f;
  }
  get selected(): JobView | null {
    return this.#selected;
  }
  get selectedIndex(): number {
    return this.#selectedIndex;
  }
  get detailOpen(): boolean {
    return this.#detailOpen && this.#selected !== null;
  }
  get failedCount(): number {
    return (this.#counts.failed ?? 0) + (this.#counts.expired ?? 0);
  }
  get finishedCount(): number {
    const c = this.#counts;
    return (c.completed ?? 0) + (c.failed ?? 0) + (c.canceled ?? 0) + (c.expired ?? 0);
  }

  countFor(filter: StateFilter): number {
    const states = STATE_FILTERS.find((f) => f.id === filter)?.states ?? [];
    if (states.length === 0) return this.#live.length;
    return states.reduce((n, s) => n + (this.#counts[s] ?? 0), 0);
  }

  select(id: string | null, openDetail = false): void {
    this.#selectedId = id;
    if (openDetail) this.#detailOpen = true;
    if (id === null) this.#detailOpen = false;
  }
  selectByOffset(delta: number): void {
    const list = this.#visible;
    if (list.length === 0) return;
    const from = this.#selectedIndex;
    let i: number;
    if (delta === Infinity) i = list.length - 1;
    else if (delta === -Infinity) i = 0;
    else if (from < 0) i = delta > 0 ? 0 : list.length - 1;
    else i = from + delta;
    this.#selectedId = list[Math.max(0, Math.min(list.length - 1, i))]?.id ?? null;
  }
  openDetail(open: boolean): void {
    this.#detailOpen = open;
  }

  #applySnapshot(s: QueueSnapshot): void {
    this.#pending.clear();
    this.#pendingStats = null;
    this.#jobs = [...s.jobs].sort(compareJobs);
    this.#copying = s.copying ?? [];
    this.#copyingTotal = s.copyingTotal ?? this.#copying.length;
    this.#elsewhere = s.elsewhere ?? [];
    const {
      jobs: _jobs,
      generatedAt: _at,
      copying: _copying,
      copyingTotal: _total,
      elsewhere: _elsewhere,
      ...stats
    } = s;
    this.#setStats(stats);
  }

  #setStats(stats: QueueStats): void {
    this.#stats = stats;
    this.#statsAt = Date.now();
    const b = stats.batch;
    if (b.finishedAt !== undefined && b.total > 0 && b.id !== this.#dismissedBatch) this.#summary = b;
  }

  #queueStats(stats: QueueStats): void {
    this.#pendingStats = stats;
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    requestAnimationFrame(() => this.#flush());
  }

  #queue(id: string, job: JobView | null): void {
    this.#pending.set(id, job);
    this.#refused.delete(id);
    this.#scheduleFlush();
  }

  #flush(): void {
    this.#flushScheduled = false;
    const stats = this.#pendingStats;
    this.#pendingStats = null;
    if (stats) this.#setStats(stats);
    if (this.#pending.size === 0) return;
    const next: JobView[] = [];
    for (const j of this.#jobs) {
      if (!this.#pending.has(j.id)) next.push(j);
    }
    for (const j of this.#pending.values()) if (j && !j.dismissed) next.push(j);
    this.#pending.clear();
    this.#jobs = next.sort(compareJobs);
  }

  async load(): Promise<void> {
    this.#loading = true;
    const res = await call('queue:snapshot');
    if (res.ok) {
      this.#applySnapshot(res.value);
      this.#error = null;
    } else this.#error = res.error;
    this.#loading = false;
  }

  subscribe(): void {
    // A tab closed during the Undo window still removes what the user removed.
    addEventListener('pagehide', () => {
      for (const u of [...this.#undo]) {
        clearTimeout(u.timer);
        void this.#commitDismiss(u.id);
      }
      for (const [id, c] of [...this.#cancels]) {
        clearTimeout(c.timer);
        void this.#commitCancel(id);
      }
    });
    on('job:added', (j) => this.#queue(j.id, j));
    on('job:updated', (j) => this.#queue(j.id, j));
    on('job:removed', ({ id }) => this.#queue(id, null));
    on('queue:snapshot-changed', (s) => this.#applySnapshot(s));
    on('queue:stats-changed', (s) => this.#queueStats(s));
    on('queue:copying-changed', (c) => {
      this.#copying = c.files;
      this.#copyingTotal = c.total;
    });
    on('queue:elsewhere-changed', (e) => (this.#elsewhere = e));
    on('queue:paused', (pause) => this.#stats && (this.#stats = { ...this.#stats, pause }));
    on('queue:resumed', () => {
      if (!this.#stats) return;
      const { pause: _p, ...rest } = this.#stats;
      this.#stats = { ...rest, stoppingAfterCurrent: false };
    });
  }

  // ---- actions: each reports its own failure; the job's new state arrives as an event ----

  async #stats_(channel: 'queue:pause' | 'queue:resume' | 'queue:stopAfterCurrent'): Promise<void> {
    const v = app.report(await call(channel));
    if (v) this.#setStats(v);
  }
  pauseAll = (): Promise<void> => this.#stats_('queue:pause');
  resumeAll = (): Promise<void> => this.#stats_('queue:resume');
  stopAfterCurrent = (): Promise<void> => this.#stats_('queue:stopAfterCurrent');

  async #jobAction(channel: 'queue:cancel' | 'queue:retry' | 'queue:rewrite', id: string, what: string): Promise<void> {
    const v = app.report(await call(channel, { id }), what);
    if (v) this.#queue(v.id, v);
  }
  /**
   * Cancels a running job a few seconds from now, unless Undo comes first (as Delete does):
   * canceling throws away its upload or processing, and a stray click must not cost that.
   */
  cancel = (id: string): Promise<void> => {
    const job = this.#live.find((j) => j.id === id);
    // A queued job loses nothing to a cancel (Retry puts it back as it was): at once.
    if (job?.state === 'queued') return this.#jobAction('queue:cancel', id, 'Could not cancel');
    if (this.#cancels.has(id)) return Promise.resolve();
    const timer = setTimeout(() => void this.#commitCancel(id), UNDO_MS);
    const toast = app.notify('info', `Canceling ${job?.fileName ?? 'the job'}.`, undefined, {
      action: { label: 'Undo', run: () => this.undoCancel(id) },
      timeoutMs: UNDO_MS,
    });
    this.#cancels.set(id, { timer, toast });
    return Promise.resolve();
  };
  /** Keeps a job whose cancel is still waiting; false when it was already sent. */
  undoCancel(id: string): boolean {
    const c = this.#cancels.get(id);
    if (!c) return false;
    clearTimeout(c.timer);
    app.dismissToast(c.toast);
    this.#cancels.delete(id);
    return true;
  }
  async #commitCancel(id: string): Promise<void> {
    this.#cancels.delete(id);
    await this.#jobAction('queue:cancel', id, 'Could not cancel');
  }
  retry = (id: string): Promise<void> => this.#jobAction('queue:retry', id, 'Could not retry');
  /** Writes the results again from the kept export; `captionPreset` lays the captions out anew first. */
  rewrite = async (id: string, captionPreset?: CaptionPresetName): Promise<void> => {
    if (!captionPreset) return this.#jobAction('queue:rewrite', id, 'Could not rewrite the results');
    const v = app.report(await call('queue:rewrite', { id, captionPreset }), 'Could not rewrite the results');
    if (v) this.#queue(v.id, v);
  };

  componentsFor(id: string): ComponentsView | null | undefined {
    return this.#components[id];
  }
  async loadComponents(id: string): Promise<void> {
    const r = await call('queue:components', { id });
    // A failed read leaves the panel as it was; the job's own states still show.
    if (r.ok) this.#components = { ...this.#components, [id]: r.value };
  }

  async retryFailed(): Promise<void> {
    const v = app.report(await call('queue:retryFailed'), 'Could not retry');
    if (!v) return;
    const skipped = v.skipped ?? [];
    app.notify('info', retrySummary(v.count, skipped.length), skipped.map((s) => s.reason).join(' '));
  }
  /**
   * Moves a job one step (or to an end). Moves of one job run in order; once main refuses one (the
   * job started meanwhile), the rest are dropped and the refusal is shown once, until main sends
   * the job's new state.
   */
  move(id: string, direction: MoveDirection): Promise<boolean> {
    if (this.#refused.has(id)) return Promise.resolve(false);
    const prev = this.#moves.get(id) ?? Promise.resolve(true);
    const next = prev.then(async (ok) => {
      if (!ok || this.#refused.has(id)) return false;
      const res = await call('queue:move', { id, direction });
      if (res.ok) return true;
      if (!this.#refused.has(id)) {
        this.#refused.add(id);
        app.report(res, 'Could not move the job');
      }
      return false;
    });
    this.#moves.set(id, next);
    void next.then(() => this.#moves.get(id) === next && this.#moves.delete(id));
    return next;
  }

  /** Places a queued job just before another queued job (or last, with null): a drag and drop. */
  async moveBefore(id: string, beforeId: string | null): Promise<void> {
    const queued = this.#live.filter((j) => j.canMove);
    const from = queued.findIndex((j) => j.id === id);
    if (from < 0 || id === beforeId) return;
    const rest = queued.filter((j) => j.id !== id);
    const to = beforeId === null ? rest.length : rest.findIndex((j) => j.id === beforeId);
    if (to < 0 || to === from) return;
    if (to === 0) await this.move(id, 'top');
    else if (to === rest.length) await this.move(id, 'bottom');
    else {
      const dir = to > from ? 'down' : 'up';
      for (let n = Math.abs(to - from); n > 0; n--) if (!(await this.move(id, dir))) return;
    }
  }

  /** Takes a job off the list at once and tells main a few seconds later, unless Undo comes first. */
  dismiss(id: string): void {
    const list = this.#visible;
    const i = list.findIndex((j) => j.id === id);
    const job = list[i] ?? this.#live.find((j) => j.id === id);
    if (!job) return;
    // Keep the keyboard user's place: select the neighbour of the removed row.
    if (this.#selectedId === id) this.#selectedId = (list[i + 1] ?? list[i - 1])?.id ?? null;
    this.#removing = new Set([...this.#removing, id]);
    const timer = setTimeout(() => void this.#commitDismiss(id), UNDO_MS);
    const toast = app.notify('info', `Removed ${job.fileName} from the list.`, undefined, {
      action: { label: 'Undo', run: () => this.undoDismiss(id) },
      timeoutMs: UNDO_MS,
    });
    this.#undo.push({ id, timer, toast });
  }

  /** Brings back a removed job (the last one removed when no id is given). */
  undoDismiss(id?: string): boolean {
    const entry = id ? this.#undo.find((u) => u.id === id) : this.#undo.at(-1);
    if (!entry) return false;
    clearTimeout(entry.timer);
    app.dismissToast(entry.toast);
    this.#undo = this.#undo.filter((u) => u !== entry);
    this.#unhide(entry.id);
    this.#selectedId = entry.id;
    return true;
  }

  #unhide(id: string): void {
    this.#removing = new Set([...this.#removing].filter((x) => x !== id));
  }

  async #commitDismiss(id: string): Promise<void> {
    this.#undo = this.#undo.filter((u) => u.id !== id);
    const res = await call('queue:dismiss', { id });
    if (res.ok) {
      this.#jobs = this.#jobs.filter((j) => j.id !== id);
      this.#queue(id, null);
    } else app.report(res, 'Could not remove');
    this.#unhide(id);
  }
  async dismissFinished(): Promise<void> {
    const v = app.report(await call('queue:dismissFinished'), 'Could not clear');
    if (v) app.notify('info', `Removed ${v.count} finished ${v.count === 1 ? 'job' : 'jobs'} from the list.`);
  }
  async openResult(jobId: string, format: ResultFormat): Promise<void> {
    app.report(await call('result:open', { jobId, format }), 'Could not open the result');
  }
  async revealResult(jobId: string, format: ResultFormat): Promise<void> {
    app.report(await call('result:reveal', { jobId, format }), 'Could not show the result');
  }
  /** Files still being copied into watch folders (not jobs yet). */
  get copying(): CopyingView[] {
    return this.#copying;
  }
  /** Files of shared folders other computers are processing, one group per folder and computer. */
  get elsewhere(): ElsewhereView[] {
    return this.#elsewhere;
  }
  /** How many are copying in all; `copying` lists only the first few. */
  get copyingTotal(): number {
    return this.#copyingTotal;
  }
  /** Only the browser downloads: in the desktop app the results are already on this computer. */
  get canDownload(): boolean {
    return platform === 'web';
  }
  async downloadResult(jobId: string, format: ResultFormat, fileName: string): Promise<void> {
    app.report(await downloadResult(jobId, format, fileName), 'Could not download the result');
  }
  async revealSource(jobId: string): Promise<void> {
    app.report(await call('source:reveal', { jobId }), 'Could not show the source');
  }

  #summarise(outcomes: AddOutcomeView[], noun: 'file' | 'link' = 'file'): void {
    const added = outcomes.filter((o) => o.outcome === 'added' || o.outcome === 'retried').length;
    const skipped = outcomes.filter((o) => o.outcome === 'already-queued' || o.outcome === 'already-done').length;
    const rejected = outcomes.filter((o) => o.outcome === 'rejected');
    if (added) app.notify('ok', added === 1 ? `Queued 1 ${noun}.` : `Queued ${added} ${noun}s.`);
    if (skipped) app.notify('info', `${skipped} already queued or done — skipped.`);
    for (const r of rejected.slice(0, 3)) if (r.outcome === 'rejected') app.notify('danger', r.message, r.path);
    if (rejected.length > 3) app.notify('danger', `${rejected.length - 3} more files were not queued.`);
  }

  /** Files dropped on the window: paths in Electron, an upload through the web bridge otherwise. */
  async addFiles(files: File[]): Promise<void> {
    if (files.length === 0) return;
    const paths = files.map((f) => pathForFile(f)).filter((p): p is string => !!p);
    const res = paths.length === files.length ? await call('queue:add', { paths }) : await uploadFiles(files);
    const v = app.report(res, 'Could not queue the files');
    if (v) this.#summarise(v);
  }

  /** Media links pasted in the Queue's dialog: what became of each, or undefined when none was queued. */
  async addLinks(links: string[], force: boolean): Promise<AddOutcomeView[] | undefined> {
    const v = app.report(
      await call('queue:addLinks', { links, ...(force ? { force } : {}) }),
      'Could not queue the links',
    );
    if (!v) return undefined;
    // The dialog itself says which were refused and why; the toasts count what was queued.
    this.#summarise(
      v.filter((o) => o.outcome !== 'rejected' && o.outcome !== 'already-done'),
      'link',
    );
    return v;
  }

  async pickFiles(): Promise<boolean> {
    const res = await call('queue:pickFiles');
    const v = app.report(res);
    if (!v) return true;
    if (!v.supported) return false;
    if (!v.canceled && v.paths.length) {
      const added = app.report(await call('queue:add', { paths: v.paths }), 'Could not queue the files');
      if (added) this.#summarise(added);
    }
    return true;
  }
}

export const queue = new QueueState();

/** "Retrying 2 files; skipped 1 that cannot succeed." */
export function retrySummary(count: number, skipped: number): string {
  const files = (n: number): string => (n === 1 ? '1 file' : `${n} files`);
  const retried = count === 0 ? 'Nothing to retry' : `Retrying ${files(count)}`;
  return skipped === 0 ? `${retried}.` : `${retried}; skipped ${files(skipped)} that cannot succeed:`;
}
