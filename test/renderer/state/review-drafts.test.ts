// What is typed in the review's marker, chapter and quote fields is never lost: kept in storage as
// it is typed, forgotten once saved, saved when the transcript opens again after the page went
// first, and a field saved as the editor leaves right after another change waits for it.
import { describe, expect, it } from 'vitest';
import type { Result, TranscriptEdit, TranscriptView } from '../../../preload/contract.js';
import {
  DraftShelf,
  describeFields,
  sideEdit,
  SideDrafts,
  type DraftStorage,
  type SideItems,
} from '../../../renderer/src/lib/state/review-drafts.js';
import { ReviewState, type TranscriptPort } from '../../../renderer/src/lib/state/review.svelte.js';

class MemoryStorage implements DraftStorage {
  readonly items = new Map<string, string>();
  getItem(k: string): string | null {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.items.set(k, v);
  }
  removeItem(k: string): void {
    this.items.delete(k);
  }
}

const ITEMS: SideItems = {
  markers: [{ id: 'm1', atMs: 1000, name: 'Marker 1', note: '', colour: 'Blue' }],
  outline: {
    chapters: [{ id: 'c2', startMs: 12_000, title: 'Rivers' }],
    quotes: [{ id: 'q1', startMs: 3000, endMs: 9000, text: 'the tide turned' }],
    notes: [],
  },
};

describe('a side field as the review saves it', () => {
  it('sends only what differs, and nothing for an item gone or a field emptied', () => {
    expect(sideEdit({ kind: 'marker', id: 'm1', name: 'Crane delay', note: ' ', colour: 'Blue' }, ITEMS)).toEqual({
      kind: 'updateMarker',
      id: 'm1',
      name: 'Crane delay',
    });
    expect(sideEdit({ kind: 'marker', id: 'm1', name: 'Marker 1', note: '', colour: 'Red' }, ITEMS)).toEqual({
      kind: 'updateMarker',
      id: 'm1',
      colour: 'Red',
    });
    expect(sideEdit({ kind: 'marker', id: 'm1', name: 'Marker 1', note: '', colour: 'Blue' }, ITEMS)).toBeNull();
    expect(sideEdit({ kind: 'marker', id: 'm9', name: 'x', note: '', colour: 'Blue' }, ITEMS)).toBeNull();
    expect(sideEdit({ kind: 'chapter', id: 'c2', title: ' Opening questions ' }, ITEMS)).toEqual({
      kind: 'updateChapter',
      id: 'c2',
      title: 'Opening questions',
    });
    expect(sideEdit({ kind: 'chapter', id: 'c2', title: '  ' }, ITEMS)).toBeNull();
    expect(sideEdit({ kind: 'quote', id: 'q1', text: 'the tide turned at last' }, ITEMS)).toEqual({
      kind: 'updateQuote',
      id: 'q1',
      text: 'the tide turned at last',
    });
    expect(describeFields([{ kind: 'chapter', id: 'c2', title: 'Opening' }])).toBe('chapter “Opening”');
  });
});

describe('side fields kept should the page go first', () => {
  it('are kept per job as typed, saved when the review opens again, and then forgotten', async () => {
    const storage = new MemoryStorage();
    const sent: TranscriptEdit[] = [];
    const ok = async (e: TranscriptEdit): Promise<boolean> => (sent.push(e), true);
    // The page that went: a marker's name typed, then a chapter title typed over twice.
    const before = new SideDrafts('job-1', ok, storage);
    before.keep('marker:m1', { kind: 'marker', id: 'm1', name: 'Crane', note: '', colour: 'Blue' });
    before.keep('marker:m1', { kind: 'marker', id: 'm1', name: 'Crane delay', note: 'teaser', colour: 'Blue' });
    before.keep('chapter:c2', { kind: 'chapter', id: 'c2', title: 'Opening questions' });
    // Another job's fields are its own.
    new DraftShelf('job-2', storage).put({ kind: 'quote', id: 'q1', text: 'elsewhere' });
    expect(new DraftShelf('job-1', storage).pending()).toHaveLength(2);

    const after = new SideDrafts('job-1', ok, storage);
    const saved = await after.recover(() => ITEMS);
    expect(sent).toEqual([
      { kind: 'updateMarker', id: 'm1', name: 'Crane delay', note: 'teaser' },
      { kind: 'updateChapter', id: 'c2', title: 'Opening questions' },
    ]);
    expect(saved.map((f) => f.kind)).toEqual(['marker', 'chapter']);
    expect(new DraftShelf('job-1', storage).pending()).toEqual([]);
    expect(new DraftShelf('job-2', storage).pending()).toHaveLength(1);
  });

  it('keeps a field that could not be saved, and forgets one already saved or answered', async () => {
    const storage = new MemoryStorage();
    const refused = new SideDrafts('job-1', async () => false, storage);
    refused.keep('quote:q1', { kind: 'quote', id: 'q1', text: 'the tide turned at last' });
    expect(await refused.recover(() => ITEMS)).toEqual([]);
    expect(new DraftShelf('job-1', storage).pending()).toHaveLength(1);
    // Saved meanwhile (the page's last request got through): nothing is sent again.
    const sent: TranscriptEdit[] = [];
    const drafts = new SideDrafts('job-1', async (e) => (sent.push(e), true), storage);
    const done: SideItems = {
      ...ITEMS,
      outline: { ...ITEMS.outline!, quotes: [{ ...ITEMS.outline!.quotes[0]!, text: 'the tide turned at last' }] },
    };
    expect(await drafts.recover(() => done)).toEqual([]);
    expect(sent).toEqual([]);
    expect(new DraftShelf('job-1', storage).pending()).toEqual([]);
    // Cancelled with Escape: forgotten at once.
    drafts.keep('chapter:c2', { kind: 'chapter', id: 'c2', title: 'Draft' });
    drafts.keep('chapter:c2', null);
    expect(new DraftShelf('job-1', storage).pending()).toEqual([]);
    // The page going: every field still typed is sent without waiting for an answer.
    drafts.keep('chapter:c2', { kind: 'chapter', id: 'c2', title: 'Closing' });
    const flushed: TranscriptEdit[] = [];
    drafts.flush(ITEMS, (e) => flushed.push(e));
    expect(flushed).toEqual([{ kind: 'updateChapter', id: 'c2', title: 'Closing' }]);
  });

  it('reads damaged storage as nothing kept', () => {
    const storage = new MemoryStorage();
    storage.setItem('sluice-review-drafts:job-1', '{not json');
    expect(new DraftShelf('job-1', storage).pending()).toEqual([]);
    storage.setItem(
      'sluice-review-drafts:job-1',
      JSON.stringify([
        { kind: 'marker', id: 1 },
        { kind: 'chapter', id: 'c1', title: 'Kept' },
      ]),
    );
    expect(new DraftShelf('job-1', storage).pending()).toEqual([{ kind: 'chapter', id: 'c1', title: 'Kept' }]);
  });
});

describe('a field saved right after another change', () => {
  it('waits for that change and goes on its revision, instead of being dropped', async () => {
    let revision = 1;
    let release: () => void = () => undefined;
    const hold = new Promise<void>((r) => (release = r));
    const edits: Array<{ revision: number; edit: TranscriptEdit }> = [];
    const view = (): TranscriptView => ({
      jobId: 'job-1',
      fileName: 'take.wav',
      media: { kind: 'missing', message: 'gone' },
      words: [],
      paragraphs: [],
      speakers: [],
      revision,
      corrected: revision > 1,
      canUndo: revision > 1,
      canRedo: false,
      simulated: true,
      results: [],
      markers: [{ id: 'm1', atMs: 0, name: 'Marker 1', note: '', colour: 'Blue' }],
    });
    const port: TranscriptPort = {
      open: async () => ({ ok: true, value: view() }),
      edit: async (_job, rev, edit): Promise<Result<TranscriptView>> => {
        edits.push({ revision: rev, edit });
        if (edits.length === 1) await hold;
        revision++;
        return { ok: true, value: view() };
      },
      history: async () => ({ ok: true, value: view() }),
      overwriteHeld: async () => ({ ok: true, value: { results: [] } }),
      onChanged: () => () => undefined,
    };
    const review = new ReviewState(port);
    await review.load('job-1');
    const first = review.apply({ kind: 'addMarker', atMs: 0, name: '', note: '', colour: 'Blue' });
    expect(review.busy).toBe(true);
    // Refused while busy, as before; the side field's way waits instead.
    expect(await review.apply({ kind: 'removeMarker', id: 'm1' })).toBe(false);
    const second = review.applyWhenFree({ kind: 'updateMarker', id: 'm1', name: 'Crane delay' });
    release();
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(edits.map((e) => [e.revision, e.edit.kind])).toEqual([
      [1, 'addMarker'],
      [2, 'updateMarker'],
    ]);
  });
});
