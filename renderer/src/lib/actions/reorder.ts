// Svelte action for mouse reordering of the Queue: a waiting row is dragged (native HTML5 drag and
// drop) onto another waiting row, and dropped before or after it by which half it is over. The
// keyboard does the same with Alt+arrows and the row menu. Listens on the list's wrapper, so rows
// that the virtual list creates and drops need no listeners of their own.

/** The rows as the queue orders them; only those with `canMove` take part. */
export interface ReorderItem {
  id: string;
  canMove: boolean;
}

export interface DropTarget {
  id: string;
  edge: 'before' | 'after';
}

export interface ReorderOptions {
  /** Read at each drag event, so the action always sees the queue as it is now. */
  items: () => readonly ReorderItem[];
  /** The row a drop would land beside, or null: the screen draws the drop line from it. */
  onhover: (target: DropTarget | null) => void;
  /** `before` is the id of the row to land before, null for the end of the waiting rows. */
  onmove: (id: string, before: string | null) => void;
}

// Our own type: a row being dragged is told apart from files dragged in from outside, which the
// window's drop handler queues (the drop here stops there).
const DRAG_TYPE = 'application/x-sluice-job';

/** Where a row dropped beside `target` lands: the id of the waiting row it goes before, null for last. */
export function dropBefore(items: readonly ReorderItem[], id: string, target: DropTarget): string | null {
  if (target.edge === 'before') return target.id;
  const queued = items.filter((j) => j.canMove && j.id !== id);
  const at = queued.findIndex((j) => j.id === target.id);
  return queued[at + 1]?.id ?? null;
}

export function reorder(
  node: HTMLElement,
  initial: ReorderOptions,
): { update: (o: ReorderOptions) => void; destroy: () => void } {
  let options = initial;
  let drag: { id: string; over: DropTarget | null } | null = null;

  function set(next: typeof drag): void {
    drag = next;
    // The dragged row over itself shows no drop line (and a drop there moves nothing).
    options.onhover(next?.over && next.over.id !== next.id ? next.over : null);
  }
  function rowAt(e: DragEvent): HTMLElement | null {
    return (e.target as HTMLElement | null)?.closest<HTMLElement>('[data-testid=job-row]') ?? null;
  }
  function ondragstart(e: DragEvent): void {
    const row = rowAt(e);
    const id = row?.dataset.id;
    if (!id || !e.dataTransfer || row.getAttribute('draggable') !== 'true') return;
    e.dataTransfer.setData(DRAG_TYPE, id);
    e.dataTransfer.effectAllowed = 'move';
    set({ id, over: null });
  }
  function ondragover(e: DragEvent): void {
    if (!drag || !e.dataTransfer?.types.includes(DRAG_TYPE)) return;
    const row = rowAt(e);
    const target = row?.dataset.id ? options.items().find((j) => j.id === row.dataset.id) : undefined;
    if (!row || !target?.canMove) {
      set({ ...drag, over: null });
      return;
    }
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    const r = row.getBoundingClientRect();
    set({ ...drag, over: { id: target.id, edge: e.clientY < r.top + r.height / 2 ? 'before' : 'after' } });
  }
  function ondrop(e: DragEvent): void {
    if (!drag || !e.dataTransfer?.types.includes(DRAG_TYPE)) return;
    e.preventDefault();
    e.stopPropagation();
    const { id, over } = drag;
    set(null);
    if (!over || over.id === id) return;
    options.onmove(id, dropBefore(options.items(), id, over));
  }
  function ondragend(): void {
    set(null);
  }

  node.addEventListener('dragstart', ondragstart);
  node.addEventListener('dragover', ondragover);
  node.addEventListener('drop', ondrop);
  node.addEventListener('dragend', ondragend);
  return {
    update(next) {
      options = next;
    },
    destroy() {
      node.removeEventListener('dragstart', ondragstart);
      node.removeEventListener('dragover', ondragover);
      node.removeEventListener('drop', ondrop);
      node.removeEventListener('dragend', ondragend);
    },
  };
}
