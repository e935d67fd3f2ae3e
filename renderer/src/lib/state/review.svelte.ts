// One open transcript: the view main sent, where the playhead is, what is being corrected, and
// whether the last change reached the results beside the source. Every edit names the revision it
// was made on; main answers with the whole new view, which replaces ours (never patched here).
import type {
  BridgeError,
  Result,
  ResultFileView,
  TranscriptChangedView,
  TranscriptEdit,
  TranscriptView,
} from '../../../../preload/contract';
import { call, on } from '../api';
import { paragraphIndexAt, paragraphIndexOfWord, wordIndexAt } from './review-timing';

/** What the review needs from main; the app passes the bridge, tests a fake. */
export interface TranscriptPort {
  open(jobId: string): Promise<Result<TranscriptView>>;
  edit(jobId: string, revision: number, edit: TranscriptEdit): Promise<Result<TranscriptView>>;
  history(verb: 'undo' | 'redo' | 'revert', jobId: string): Promise<Result<TranscriptView>>;
  overwriteHeld(jobId: string): Promise<Result<{ results: ResultFileView[] }>>;
  onChanged(cb: (change: TranscriptChangedView) => void): () => void;
}

export type SaveStatus =
  { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; warning?: string } | { kind: 'failed'; message: string };

export class ReviewState {
  #port: TranscriptPort;
  #jobId = '';
  #view = $state.raw<TranscriptView | null>(null);
  #loadError = $state.raw<BridgeError | null>(null);
  #status = $state.raw<SaveStatus>({ kind: 'idle' });
  #busy = $state(false);
  #timeMs = 0;
  #current = $state(-1);
  #editing = $state.raw<{ from: number; to: number } | null>(null);
  /** What is typed in the open correction: kept here so it outlives its field (scrolled away, blurred). */
  #draft = $state('');
  /** A correction the editor asked for while a change was being saved (a double-click on another word). */
  #nextEdit: { from: number; to: number } | null = null;
  /**
   * How the last saved change moved the words, from the revision it was made on: those in
   * `from`–`at` were replaced, those from `at` on moved by `delta`.
   */
  #moved: { revision: number; from: number; at: number; delta: number } | null = null;
  #following = $state(true);
  /** The job's result files as last written (the open view's, then each rewrite's). */
  #results = $state.raw<ResultFileView[]>([]);
  /** Hand-edited files the editor chose to keep beside the corrected copies: not asked about again. */
  #keptBoth = $state.raw<readonly string[]>([]);
  /** Edits waiting for the change being saved (applyWhenFree). */
  #waiting: Array<() => void> = [];
  #currentParagraph = $derived(this.#view ? paragraphIndexOfWord(this.#view.paragraphs, this.#current) : -1);

  constructor(port: TranscriptPort) {
    this.#port = port;
  }

  get view(): TranscriptView | null {
    return this.#view;
  }
  get loadError(): BridgeError | null {
    return this.#loadError;
  }
  get status(): SaveStatus {
    return this.#status;
  }
  get busy(): boolean {
    return this.#busy;
  }
  /** The word being spoken; -1 before the first. */
  get current(): number {
    return this.#current;
  }
  get currentParagraph(): number {
    return this.#currentParagraph;
  }
  get editing(): { from: number; to: number } | null {
    return this.#editing;
  }
  get draft(): string {
    return this.#draft;
  }
  /** The open correction differs from the words it replaces and is not being saved yet. */
  get unsavedEdit(): { before: string; after: string } | null {
    const range = this.#editing;
    if (!range || !this.#view || this.#busy) return null;
    const before = this.#wordsText(range);
    const after = normalise(this.#draft);
    return after === before ? null : { before, after };
  }
  /**
   * Results the corrections went to under another name, because the editor had changed the usual
   * file by hand (`C0001.srt` kept, the corrected captions in `C0001.MP4.srt`), not yet answered for.
   */
  get held(): ResultFileView[] {
    return this.#results.filter((r) => r.collided && r.heldBy && !this.#keptBoth.includes(r.heldBy));
  }
  /** Leaves the hand-edited files as they are, the corrected copies beside them. */
  keepBoth(): void {
    this.#keptBoth = [...this.#keptBoth, ...this.held.map((r) => r.heldBy ?? '')];
  }
  /** Writes the corrected results over the hand-edited files (the editor chose to), removing the copies. */
  async overwriteHeld(): Promise<boolean> {
    if (this.#busy || !this.#view) return false;
    this.#busy = true;
    this.#status = { kind: 'saving' };
    try {
      const r = await this.#port.overwriteHeld(this.#jobId);
      if (!r.ok) {
        this.#status = { kind: 'failed', message: r.error.message };
        return false;
      }
      this.#results = r.value.results;
      this.#status = { kind: 'saved' };
      return true;
    } finally {
      this.#busy = false;
      for (const resolve of this.#waiting.splice(0)) resolve();
    }
  }
  /** The list keeps the current paragraph in view until the user scrolls away. */
  get following(): boolean {
    return this.#following;
  }

  async load(jobId: string): Promise<void> {
    this.#jobId = jobId;
    this.#loadError = null;
    const r = await this.#port.open(jobId);
    if (r.ok) {
      this.#replace(r.value);
      this.#results = r.value.results;
    } else this.#loadError = r.error;
  }

  /** Sets where main's pushes apply; returns the unsubscribe. */
  subscribe(): () => void {
    return this.#port.onChanged((c) => {
      if (c.jobId !== this.#jobId) return;
      this.#results = c.results;
      const warning = c.resultWarning ?? heldNote(c.results);
      this.#status = warning ? { kind: 'saved', warning } : { kind: 'saved' };
      // A change made elsewhere (another window, the CLI): read it rather than edit a stale copy.
      if (this.#view && c.revision > this.#view.revision && !this.#busy) void this.load(this.#jobId);
    });
  }

  /** Called on every frame while playing: cheap when the word has not changed. */
  setTime(ms: number): void {
    this.#timeMs = ms;
    const words = this.#view?.words;
    if (!words) return;
    const i = wordIndexAt(words, ms);
    if (i !== this.#current) this.#current = i;
  }

  get timeMs(): number {
    return this.#timeMs;
  }

  /** The start of the paragraph `delta` away from the one playing (clamped to the transcript). */
  paragraphStart(delta: number): { index: number; ms: number } | null {
    const paragraphs = this.#view?.paragraphs;
    if (!paragraphs || paragraphs.length === 0) return null;
    const here = paragraphIndexAt(paragraphs, this.#timeMs);
    // "Previous" from the middle of a paragraph goes back to its own start first, like a player's ⏮.
    const atStart = this.#timeMs - (paragraphs[here]?.startMs ?? 0) < 1500;
    const target = Math.min(paragraphs.length - 1, Math.max(0, delta < 0 && !atStart ? here : here + delta));
    return { index: target, ms: paragraphs[target]!.startMs };
  }

  follow(on: boolean): void {
    this.#following = on;
  }

  /** Opens a correction of words `from`–`to` as numbered in `seen` (default: the revision shown). */
  startEdit(from: number, to: number, seen?: number): void {
    const view = this.#view;
    if (view && seen !== undefined && seen !== view.revision) {
      // Pressed before the last change landed: find the words where that change moved them.
      const m = this.#moved;
      if (!m || m.revision !== seen || (from < m.at && to > m.from)) return;
      if (from >= m.at) {
        from += m.delta;
        to += m.delta;
      }
    }
    if (!this.#view || from < 0 || to <= from || to > this.#view.words.length) return;
    if (this.#busy) {
      // Opened again once the change being saved is in (see #run).
      this.#nextEdit = { from, to };
      return;
    }
    this.#editing = { from, to };
    this.#draft = this.#wordsText({ from, to });
  }

  cancelEdit(): void {
    this.#editing = null;
    this.#nextEdit = null;
  }

  setDraft(text: string): void {
    this.#draft = text;
  }

  /**
   * Applies the open correction (Enter, or focus leaving it: nothing typed is dropped); unchanged
   * text just closes it. True when nothing is left unsaved.
   */
  async correct(text: string = this.#draft): Promise<boolean> {
    const range = this.#editing;
    const view = this.#view;
    if (!range || !view) return true;
    this.#draft = text;
    const after = normalise(text);
    if (after === this.#wordsText(range)) {
      this.#editing = null;
      return true;
    }
    if (after === '') {
      this.#status = { kind: 'failed', message: 'A correction needs at least one word.' };
      return false;
    }
    const ok = await this.apply({ kind: 'replace', from: range.from, to: range.to, text: after });
    if (ok && this.#editing === range) this.#editing = null;
    return ok;
  }

  renameSpeaker(speaker: string, name: string): Promise<boolean> {
    const trimmed = name.trim();
    const known = this.#view?.speakers.find((s) => s.id === speaker);
    if (!trimmed || !known || known.name === trimmed) return Promise.resolve(false);
    return this.apply({ kind: 'renameSpeaker', speaker, name: trimmed });
  }

  setParagraphSpeaker(paragraph: number, speaker: string): Promise<boolean> {
    const p = this.#view?.paragraphs[paragraph];
    if (!p || p.speaker === speaker) return Promise.resolve(false);
    return this.apply({ kind: 'setSpeaker', from: p.first, to: p.end, speaker });
  }

  /** Sends one edit made on the revision we show. */
  async apply(edit: TranscriptEdit): Promise<boolean> {
    const view = this.#view;
    if (!view || this.#busy) return false;
    return this.#run(() => this.#port.edit(view.jobId, view.revision, edit));
  }

  /**
   * Sends one edit once the change being saved is in (a side field saved as the editor leaves it,
   * right after another change): not dropped for being second.
   */
  async applyWhenFree(edit: TranscriptEdit): Promise<boolean> {
    while (this.#busy) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    return this.apply(edit);
  }

  undo(): Promise<boolean> {
    return this.#view?.canUndo ? this.#history('undo') : Promise.resolve(false);
  }
  redo(): Promise<boolean> {
    return this.#view?.canRedo ? this.#history('redo') : Promise.resolve(false);
  }
  revert(): Promise<boolean> {
    return this.#view?.corrected ? this.#history('revert') : Promise.resolve(false);
  }

  #history(verb: 'undo' | 'redo' | 'revert'): Promise<boolean> {
    if (this.#busy) return Promise.resolve(false);
    this.#editing = null;
    return this.#run(() => this.#port.history(verb, this.#jobId));
  }

  async #run(op: () => Promise<Result<TranscriptView>>): Promise<boolean> {
    this.#busy = true;
    this.#status = { kind: 'saving' };
    const before = this.#view?.words.length ?? 0;
    const revisionBefore = this.#view?.revision ?? -1;
    const range = this.#editing;
    try {
      const r = await op();
      if (r.ok) {
        // The status stays "saving" until 'transcript:changed' says whether the results were
        // rewritten (it may also have arrived before this answer).
        const delta = r.value.words.length - before;
        this.#moved = range
          ? { revision: revisionBefore, from: range.from, at: range.to, delta }
          : delta === 0
            ? { revision: revisionBefore, from: Infinity, at: Infinity, delta }
            : null;
        this.#replace(r.value);
        this.#openNext(range, delta);
        return true;
      }
      this.#nextEdit = null;
      this.#status = { kind: 'failed', message: r.error.message };
      if (r.error.code === 'CONFLICT') {
        // Someone else changed it first: show theirs and let the editor redo the correction on it.
        this.#editing = null;
        const fresh = await this.#port.open(this.#jobId);
        if (fresh.ok) this.#replace(fresh.value);
        const typed = range ? normalise(this.#draft) : '';
        this.#status = {
          kind: 'failed',
          message:
            'The transcript changed elsewhere; this is the latest version. Make the correction again' +
            (typed ? ` (you typed “${typed}”).` : '.'),
        };
      }
      return false;
    } finally {
      this.#busy = false;
      for (const resolve of this.#waiting.splice(0)) resolve();
    }
  }

  /**
   * Opens the correction asked for while saving, its words moved by what the saved change added or
   * removed before them; one inside the words just replaced no longer names anything.
   */
  #openNext(saved: { from: number; to: number } | null, delta: number): void {
    const next = this.#nextEdit;
    this.#nextEdit = null;
    if (!next) return;
    if (saved && next.from < saved.to && next.to > saved.from) return;
    const shift = saved && next.from >= saved.to ? delta : 0;
    const range = { from: next.from + shift, to: next.to + shift };
    if (range.from < 0 || range.to > (this.#view?.words.length ?? 0)) return;
    this.#editing = range;
    this.#draft = this.#wordsText(range);
  }

  #wordsText(range: { from: number; to: number }): string {
    return (this.#view?.words ?? [])
      .slice(range.from, range.to)
      .map((w) => w.text)
      .join(' ');
  }

  #replace(view: TranscriptView): void {
    this.#view = view;
    this.#current = wordIndexAt(view.words, this.#timeMs);
    if (this.#editing && this.#editing.to > view.words.length) this.#editing = null;
  }
}

/**
 * Where corrections went when a file changed by hand held the usual name: "C0001.srt was changed
 * outside Sluice and kept; the corrections are in C0001.MP4.srt" (never "results updated" alone).
 */
export function heldNote(results: readonly ResultFileView[]): string | undefined {
  const held = results.filter((r) => r.collided && r.heldBy);
  if (held.length === 0) return undefined;
  const names = (list: readonly string[]): string => list.join(', ');
  const base = (p: string): string => p.split(/[/\\]/).pop() ?? p;
  const kept = names(held.map((r) => base(r.heldBy ?? '')));
  const copies = names(held.map((r) => r.fileName));
  return `${kept} ${held.length === 1 ? 'was' : 'were'} changed outside Sluice and kept; the corrections are in ${copies}`;
}

/** Typed text as a correction: trimmed, runs of spaces as one. */
function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** The review's port over the bridge. */
export const transcriptBridge: TranscriptPort = {
  open: (jobId) => call('transcript:open', { jobId }),
  edit: (jobId, revision, edit) => call('transcript:edit', { jobId, revision, edit }),
  history: (verb, jobId) => call(`transcript:${verb}`, { jobId }),
  overwriteHeld: (jobId) => call('transcript:overwriteHeld', { jobId }),
  onChanged: (cb) => on('transcript:changed', cb),
};
