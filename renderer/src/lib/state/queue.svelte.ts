// The Queue screen's state: every job main reports and the batch statistics, with the filters and
// selection (queue-selection), the row actions (queue-row-actions) and adding (queue-add) behind it.
// Note: main sends one event per job change (≤ 10/s per job); we coalesce them into one array
// replacement per animation frame so 10,000 rows cost one re-sort per frame, not one per event.
import type {
  CaptionPresetName,
  CopyingView,
  ElsewhereView,
  BatchStats,
  BridgeError,
  ComponentsView,
  JobView,
  LinkDestinationsView,
  PauseView,
  QueueSnapshot,
  QueueStats,
  ResultFormat,
  MoveDirection,
} from '../../../../preload/contract';
import type { LinkDestination } from '../../../../common/link-destination.js';
import { call, downloadResult, on, platform } from '../api';
import { app } from './app.svelte';
import { addFiles, addLinks, linkDestinations, pickFiles, type AddLinksAnswer } from './queue-add';
import { QueueRowActions } from './queue-row-actions.svelte';
import { QueueSelection, type StateFilter } from './queue-selection.svelte';

export { STATE_FILTERS, type StateFilter } from './queue-selection.svelte';

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
  #live = $derived.by(() => {
    const removing = this.#actions.removing;
    return removing.size ? this.#jobs.filter((j) => !removing.has(j.id)) : this.#jobs;
  });
  #selection = new QueueSelection(() => this.#live);
  #actions: QueueRowActions = new QueueRowActions({
    live: () => this.#live,
    selection: this.#selection,
    changed: (id, job) => this.#queue(id, job),
    removed: (id) => {
      this.#jobs = this.#jobs.filter((j) => j.id !== id);
      this.#queue(id, null);
    },
  });

  get jobs(): JobView[] {
    return this.#live;
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

  // ---- filters and selection (queue-selection.svelte.ts) ----

  get visible(): JobView[] {
    return this.#selection.visible;
  }
  get stateFilter(): StateFilter {
    return this.#selection.stateFilter;
  }
  set stateFilter(f: StateFilter) {
    this.#selection.stateFilter = f;
  }
  get folderFilter(): string {
    return this.#selection.folderFilter;
  }
  set folderFilter(f: string) {
    this.#selection.folderFilter = f;
  }
  get selected(): JobView | null {
    return this.#selection.selected;
  }
  get selectedIndex(): number {
    return this.#selection.selectedIndex;
  }
  get detailOpen(): boolean {
    return this.#selection.detailOpen;
  }
  get failedCount(): number {
    return this.#selection.failedCount;
  }
  get finishedCount(): number {
    return this.#selection.finishedCount;
  }
  countFor(filter: StateFilter): number {
    return this.#selection.countFor(filter);
  }
  select(id: string | null, openDetail = false): void {
    this.#selection.select(id, openDetail);
  }
  selectByOffset(delta: number): void {
    this.#selection.selectByOffset(delta);
  }
  openDetail(open: boolean): void {
    this.#selection.openDetail(open);
  }

  // ---- the list, kept by main's snapshot and events ----

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
    // A new batch under way: the last one's outcome is no longer what the header counts (S3-7).
    else if (this.#summary && b.id !== this.#summary.id) this.#summary = null;
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
    this.#actions.jobChanged(id);
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
    addEventListener('pagehide', () => this.#actions.commitAll());
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

  // ---- the whole queue's actions: each reports its own failure ----

  async #stats_(channel: 'queue:pause' | 'queue:resume' | 'queue:stopAfterCurrent'): Promise<void> {
    const v = app.report(await call(channel));
    if (v) this.#setStats(v);
  }
  pauseAll = (): Promise<void> => this.#stats_('queue:pause');
  resumeAll = (): Promise<void> => this.#stats_('queue:resume');
  stopAfterCurrent = (): Promise<void> => this.#stats_('queue:stopAfterCurrent');

  async retryFailed(): Promise<void> {
    const v = app.report(await call('queue:retryFailed'), 'Could not retry');
    if (!v) return;
    const skipped = v.skipped ?? [];
    app.notify('info', retrySummary(v.count, skipped.length), skipped.map((s) => s.reason).join(' '));
  }
  async dismissFinished(): Promise<void> {
    const v = app.report(await call('queue:dismissFinished'), 'Could not clear');
    if (v) app.notify('info', `Removed ${v.count} finished ${v.count === 1 ? 'job' : 'jobs'} from the list.`);
  }

  // ---- one row's actions (queue-row-actions.svelte.ts) ----

  cancel = (id: string): Promise<void> => this.#actions.cancel(id);
  undoCancel(id: string): boolean {
    return this.#actions.undoCancel(id);
  }
  retry = (id: string): Promise<void> => this.#actions.retry(id);
  rewrite = (id: string, captionPreset?: CaptionPresetName, replace?: boolean): Promise<void> =>
    this.#actions.rewrite(id, captionPreset, replace);
  move(id: string, direction: MoveDirection): Promise<boolean> {
    return this.#actions.move(id, direction);
  }
  moveBefore(id: string, beforeId: string | null): Promise<void> {
    return this.#actions.moveBefore(id, beforeId);
  }
  dismiss(id: string): void {
    this.#actions.dismiss(id);
  }
  undoDismiss(id?: string): boolean {
    return this.#actions.undoDismiss(id);
  }

  // ---- one job's results and parts ----

  componentsFor(id: string): ComponentsView | null | undefined {
    return this.#components[id];
  }
  async loadComponents(id: string): Promise<void> {
    const r = await call('queue:components', { id });
    // A failed read leaves the panel as it was; the job's own states still show.
    if (r.ok) this.#components = { ...this.#components, [id]: r.value };
  }
  async openResult(jobId: string, format: ResultFormat): Promise<void> {
    app.report(await call('result:open', { jobId, format }), 'Could not open the result');
  }
  async revealResult(jobId: string, format: ResultFormat): Promise<void> {
    app.report(await call('result:reveal', { jobId, format }), 'Could not show the result');
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

  // ---- adding (queue-add.ts) ----

  addFiles(files: File[]): Promise<void> {
    return addFiles(files);
  }
  addLinks(links: string[], force: boolean, destination?: LinkDestination): Promise<AddLinksAnswer | undefined> {
    return addLinks(links, force, destination);
  }
  linkDestinations(): Promise<LinkDestinationsView | undefined> {
    return linkDestinations();
  }
  pickFiles(): Promise<boolean> {
    return pickFiles();
  }
}

export const queue = new QueueState();

/** "Retrying 2 files; skipped 1 that cannot succeed." */
export function retrySummary(count: number, skipped: number): string {
  const files = (n: number): string => (n === 1 ? '1 file' : `${n} files`);
  const retried = count === 0 ? 'Nothing to retry' : `Retrying ${files(count)}`;
  return skipped === 0 ? `${retried}.` : `${retried}; skipped ${files(skipped)} that cannot succeed:`;
}
