// Which of the Queue's rows show and which one is chosen: the state and folder filters, the
// selection the keyboard moves, and the counts on the filter tabs.
import type { JobState, JobView } from '../../../../preload/contract';
import { ACTIVE_STATES } from '../../../../preload/contract';

export type StateFilter = 'all' | 'active' | 'queued' | 'completed' | 'failed' | 'canceled';
export const STATE_FILTERS: ReadonlyArray<{ id: StateFilter; label: string; states: JobState[] }> = [
  { id: 'all', label: 'All', states: [] },
  { id: 'active', label: 'In progress', states: [...ACTIVE_STATES] },
  { id: 'queued', label: 'Queued', states: ['queued'] },
  { id: 'completed', label: 'Completed', states: ['completed'] },
  { id: 'failed', label: 'Failed', states: ['failed', 'expired'] },
  { id: 'canceled', label: 'Canceled', states: ['canceled'] },
];

export class QueueSelection {
  /** The rows on the list (removals waiting for Undo left out), read reactively. */
  readonly #rows: () => JobView[];
  #stateFilter = $state<StateFilter>('all');
  #folderFilter = $state<string>('all');
  #selectedId = $state<string | null>(null);
  #detailOpen = $state(false);

  #visible = $derived.by(() => {
    const states = STATE_FILTERS.find((f) => f.id === this.#stateFilter)?.states ?? [];
    const folder = this.#folderFilter;
    return this.#rows().filter(
      (j) =>
        (states.length === 0 || states.includes(j.state)) &&
        (folder === 'all' ||
          (folder === 'manual'
            ? j.origin.kind === 'manual'
            : j.origin.kind === 'watch' && j.origin.folderId === folder)),
    );
  });
  #selected = $derived.by(() => this.#rows().find((j) => j.id === this.#selectedId) ?? null);
  // Counted from the rows themselves so the filter tabs never disagree with the list (the stats
  // event from main is throttled to once a second).
  #counts = $derived.by(() => {
    const c: Partial<Record<JobView['state'], number>> = {};
    for (const j of this.#rows()) c[j.state] = (c[j.state] ?? 0) + 1;
    return c;
  });
  #selectedIndex = $derived(this.#visible.findIndex((j) => j.id === this.#selectedId));

  constructor(rows: () => JobView[]) {
    this.#rows = rows;
  }

  get visible(): JobView[] {
    return this.#visible;
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
  get selectedId(): string | null {
    return this.#selectedId;
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
    if (states.length === 0) return this.#rows().length;
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

  /** A row leaves the list: a keyboard user keeps their place on its neighbour in the visible rows. */
  stepAwayFrom(id: string): void {
    if (this.#selectedId !== id) return;
    const list = this.#visible;
    const i = list.findIndex((j) => j.id === id);
    this.#selectedId = (list[i + 1] ?? list[i - 1])?.id ?? null;
  }
}
