// What the Queue does to one row: cancel and remove, each undoable for a few seconds before main
// is told; retry and rewrite; moves, run one after another per job. Each reports its own failure;
// the job's new state arrives as an event.
// The Maps and Sets below are bookkeeping the view never reads; the one it reads, `#removing`, is
// replaced whole in a $state.raw rather than changed in place.
/* eslint-disable svelte/prefer-svelte-reactivity */
import type { CaptionPresetName, JobView, MoveDirection } from '../../../../preload/contract';
import { call } from '../api';
import { app } from './app.svelte';
import type { QueueSelection } from './queue-selection.svelte';

/** How long a removed or canceled job can be brought back before main is told. */
export const UNDO_MS = 6000;

/** The list the actions work on. */
export interface QueueRows {
  /** Every job on the list, removals waiting for Undo left out. */
  live(): JobView[];
  selection: QueueSelection;
  /** A job's new view from main's answer (null: gone), shown with the next frame's changes. */
  changed(id: string, job: JobView | null): void;
  /** Main removed the job: off the list at once, not a frame later (its row is hidden until then). */
  removed(id: string): void;
}

export class QueueRowActions {
  readonly #rows: QueueRows;
  readonly #undoMs: number;
  /** Jobs removed from the list but not yet sent to main: Undo brings them back. */
  #removing = $state.raw<ReadonlySet<string>>(new Set());
  #undo: Array<{ id: string; timer: ReturnType<typeof setTimeout>; toast: number }> = [];
  /** Cancels asked for and not yet sent to main: Undo in their notice keeps the job running. */
  #cancels = new Map<string, { timer: ReturnType<typeof setTimeout>; toast: number }>();
  /** Moves run one after another per job; after a refusal the rest are dropped (one notice, not one per key). */
  #moves = new Map<string, Promise<boolean>>();
  #refused = new Set<string>();

  constructor(rows: QueueRows, undoMs = UNDO_MS) {
    this.#rows = rows;
    this.#undoMs = undoMs;
  }

  /** Ids taken off the list whose removal main has not been told yet. */
  get removing(): ReadonlySet<string> {
    return this.#removing;
  }

  /** Main sent a job's new state: moves refused on the old one may be tried again. */
  jobChanged(id: string): void {
    this.#refused.delete(id);
  }

  /** A tab closed during the Undo window still removes and cancels what the user asked to. */
  commitAll(): void {
    for (const u of [...this.#undo]) {
      clearTimeout(u.timer);
      void this.#commitDismiss(u.id);
    }
    for (const [id, c] of [...this.#cancels]) {
      clearTimeout(c.timer);
      void this.#commitCancel(id);
    }
  }

  async #jobAction(channel: 'queue:cancel' | 'queue:retry' | 'queue:rewrite', id: string, what: string): Promise<void> {
    const v = app.report(await call(channel, { id }), what);
    if (v) this.#rows.changed(v.id, v);
  }

  /**
   * Cancels a running job a few seconds from now, unless Undo comes first (as Delete does):
   * canceling throws away its upload or processing, and a stray click must not cost that.
   */
  cancel(id: string): Promise<void> {
    const job = this.#rows.live().find((j) => j.id === id);
    // A queued job loses nothing to a cancel (Retry puts it back as it was): at once.
    if (job?.state === 'queued') return this.#jobAction('queue:cancel', id, 'Could not cancel');
    if (this.#cancels.has(id)) return Promise.resolve();
    const timer = setTimeout(() => void this.#commitCancel(id), this.#undoMs);
    const toast = app.notify('info', `Canceling ${job?.fileName ?? 'the job'}.`, undefined, {
      action: { label: 'Undo', run: () => this.undoCancel(id) },
      timeoutMs: this.#undoMs,
    });
    this.#cancels.set(id, { timer, toast });
    return Promise.resolve();
  }
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

  retry(id: string): Promise<void> {
    return this.#jobAction('queue:retry', id, 'Could not retry');
  }
  /**
   * Writes the results again from the kept export; `captionPreset` adds captions in that layout
   * beside the main ones, or with `replace` lays the main captions out anew.
   */
  async rewrite(id: string, captionPreset?: CaptionPresetName, replace?: boolean): Promise<void> {
    if (!captionPreset) return this.#jobAction('queue:rewrite', id, 'Could not rewrite the results');
    const params = { id, captionPreset, ...(replace ? { replaceCaptions: true } : {}) };
    const v = app.report(await call('queue:rewrite', params), 'Could not rewrite the results');
    if (v) this.#rows.changed(v.id, v);
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
    const queued = this.#rows.live().filter((j) => j.canMove);
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
    const job = this.#rows.selection.visible.find((j) => j.id === id) ?? this.#rows.live().find((j) => j.id === id);
    if (!job) return;
    this.#rows.selection.stepAwayFrom(id);
    this.#removing = new Set([...this.#removing, id]);
    const timer = setTimeout(() => void this.#commitDismiss(id), this.#undoMs);
    const toast = app.notify('info', `Removed ${job.fileName} from the list.`, undefined, {
      action: { label: 'Undo', run: () => this.undoDismiss(id) },
      timeoutMs: this.#undoMs,
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
    this.#rows.selection.select(entry.id);
    return true;
  }

  #unhide(id: string): void {
    this.#removing = new Set([...this.#removing].filter((x) => x !== id));
  }

  async #commitDismiss(id: string): Promise<void> {
    this.#undo = this.#undo.filter((u) => u.id !== id);
    const res = await call('queue:dismiss', { id });
    if (res.ok) this.#rows.removed(id);
    else app.report(res, 'Could not remove');
    this.#unhide(id);
  }
}
