// The review view's state, alone over a transcript kept in memory that answers as main does (a
// stale revision is refused with CONFLICT): what a correction sends, what it does with the answer,
// and where a correction asked for meanwhile lands once the words have moved.
import { describe, expect, it } from 'vitest';
import type {
  Result,
  ResultFileView,
  TranscriptChangedView,
  TranscriptEdit,
  TranscriptView,
} from '../../../preload/contract.js';
import { ReviewState, heldNote, type TranscriptPort } from '../../../renderer/src/lib/state/review.svelte.js';

/** One transcript of `text`, a word a second; edits replace words and bump the revision. */
class MemoryTranscript implements TranscriptPort {
  words: string[];
  revision = 1;
  edits: Array<{ revision: number; edit: TranscriptEdit }> = [];
  opens = 0;
  /** While set, an edit's answer waits for it (a save in flight). */
  hold: Promise<void> | null = null;
  #listeners = new Set<(c: TranscriptChangedView) => void>();

  constructor(text: string) {
    this.words = text.split(' ');
  }
  view(): TranscriptView {
    const words = this.words.map((text, i) => ({ text, start: i * 1000, end: i * 1000 + 900, corrected: false }));
    return {
      jobId: 'job-1',
      fileName: 'take.wav',
      media: { kind: 'missing', message: 'gone' },
      words,
      paragraphs: [{ first: 0, end: words.length, startMs: 0, endMs: words.length * 1000 }],
      speakers: [],
      revision: this.revision,
      corrected: this.revision > 1,
      canUndo: this.revision > 1,
      canRedo: false,
      simulated: true,
      results: [],
    };
  }
  async open(): Promise<Result<TranscriptView>> {
    this.opens++;
    return { ok: true, value: this.view() };
  }
  async edit(_jobId: string, revision: number, edit: TranscriptEdit): Promise<Result<TranscriptView>> {
    this.edits.push({ revision, edit });
    await this.hold;
    if (revision !== this.revision)
      return { ok: false, error: { code: 'CONFLICT', message: 'changed elsewhere', retryable: false } };
    if (edit.kind === 'replace') this.words.splice(edit.from, edit.to - edit.from, ...edit.text.split(' '));
    this.revision++;
    return { ok: true, value: this.view() };
  }
  async history(): Promise<Result<TranscriptView>> {
    return { ok: true, value: this.view() };
  }
  async overwriteHeld(): Promise<Result<{ results: ResultFileView[] }>> {
    return { ok: true, value: { results: [] } };
  }
  onChanged(cb: (c: TranscriptChangedView) => void): () => void {
    this.#listeners.add(cb);
    return () => this.#listeners.delete(cb);
  }
  push(c: Partial<TranscriptChangedView>): void {
    for (const l of this.#listeners)
      l({ jobId: 'job-1', revision: this.revision, results: [], ...c } as TranscriptChangedView);
  }
}

async function opened(text: string): Promise<{ port: MemoryTranscript; review: ReviewState }> {
  const port = new MemoryTranscript(text);
  const review = new ReviewState(port);
  await review.load('job-1');
  return { port, review };
}
const text = (r: ReviewState): string => r.view?.words.map((w) => w.text).join(' ') ?? '';

describe('review state', () => {
  it('sends a changed correction on the revision shown, and closes an unchanged one without a word to main', async () => {
    const { port, review } = await opened('the quick brown fox');
    review.startEdit(1, 3);
    expect(review.draft).toBe('quick brown');
    expect(await review.correct('quick  brown ')).toBe(true);
    expect(review.editing).toBeNull();
    expect(port.edits).toEqual([]);
    review.startEdit(1, 3);
    expect(review.unsavedEdit).toBeNull();
    review.setDraft('slow red');
    expect(review.unsavedEdit).toEqual({ before: 'quick brown', after: 'slow red' });
    expect(await review.correct()).toBe(true);
    expect(port.edits).toEqual([{ revision: 1, edit: { kind: 'replace', from: 1, to: 3, text: 'slow red' } }]);
    expect(text(review)).toBe('the slow red fox');
    expect(review.editing).toBeNull();
  });

  it('refuses an empty correction and keeps it open', async () => {
    const { port, review } = await opened('one two');
    review.startEdit(0, 1);
    expect(await review.correct('   ')).toBe(false);
    expect(review.status).toEqual({ kind: 'failed', message: 'A correction needs at least one word.' });
    expect(review.editing).toEqual({ from: 0, to: 1 });
    expect(port.edits).toEqual([]);
  });

  it('shows the latest version after a conflict and says what the editor had typed', async () => {
    const { port, review } = await opened('one two three');
    port.words = ['uno', 'two', 'three'];
    port.revision = 2;
    review.startEdit(1, 2);
    expect(await review.correct('deux')).toBe(false);
    expect(text(review)).toBe('uno two three');
    expect(review.editing).toBeNull();
    expect(review.status).toEqual({
      kind: 'failed',
      message:
        'The transcript changed elsewhere; this is the latest version. Make the correction again (you typed “deux”).',
    });
  });

  it('opens a correction asked for during a save once it lands, moved by the words the save added', async () => {
    const { port, review } = await opened('a b c d e');
    let release!: () => void;
    port.hold = new Promise((r) => (release = r));
    review.startEdit(1, 2);
    const saving = review.correct('bee bee bee');
    expect(review.busy).toBe(true);
    review.startEdit(3, 4); // "d", as the editor saw it
    expect(review.editing).toEqual({ from: 1, to: 2 });
    release();
    expect(await saving).toBe(true);
    expect(review.editing).toEqual({ from: 5, to: 6 });
    expect(review.draft).toBe('d');
  });

  it('maps a word pressed on the revision before the last change to where that change moved it', async () => {
    const { review } = await opened('a b c d e');
    review.startEdit(1, 2);
    await review.correct('x y');
    review.startEdit(3, 4, 1);
    expect(review.draft).toBe('d');
    review.cancelEdit();
    // A word inside the replaced span no longer names anything.
    review.startEdit(1, 2, 1);
    expect(review.editing).toBeNull();
  });

  it('reads again a change made elsewhere to its file only, and names held results', async () => {
    const { port, review } = await opened('one two');
    const stop = review.subscribe();
    port.push({ jobId: 'job-2', revision: 9 });
    expect(port.opens).toBe(1);
    const held: ResultFileView[] = [
      { format: 'srt', path: '/m/C0001.MP4.srt', fileName: 'C0001.MP4.srt', collided: true, heldBy: '/m/C0001.srt' },
    ];
    port.revision = 2;
    port.push({ results: held });
    expect(port.opens).toBe(2);
    expect(review.status).toEqual({ kind: 'saved', warning: heldNote(held) });
    expect(heldNote(held)).toBe('C0001.srt was changed outside Sluice and kept; the corrections are in C0001.MP4.srt');
    expect(review.held).toEqual(held);
    review.keepBoth();
    expect(review.held).toEqual([]);
    stop();
  });

  it('steps to the start of the paragraph playing first, then to the one before', async () => {
    const { review } = await opened('a b c d');
    review.setTime(2500);
    expect(review.current).toBe(2);
    expect(review.paragraphStart(-1)).toEqual({ index: 0, ms: 0 });
    expect(review.paragraphStart(1)).toEqual({ index: 0, ms: 0 });
  });
});
