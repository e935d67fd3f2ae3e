// What is typed in the review's side fields (a marker's name, note and colour; a chapter's title;
// a quote's words) before it is saved. A field saves itself when focus leaves it or it goes (another
// screen, another clip, the review closing), as word corrections do. In case the page goes first
// (the window closed, reloaded, Sluice quitting), every keystroke is also kept in this computer's
// storage, per job, until the change is saved; the next time that transcript opens, what is still
// there is saved then. Saving text that is already saved changes nothing, so keeping it twice is
// harmless.
import type {
  MarkerColourView,
  TranscriptEdit,
  TranscriptMarkerView,
  TranscriptOutlineView,
} from '../../../../preload/contract';

export type SideField =
  | { kind: 'marker'; id: string; name: string; note: string; colour: MarkerColourView }
  | { kind: 'chapter'; id: string; title: string }
  | { kind: 'quote'; id: string; text: string };

/** What a side field is saved against: the markers and outline of the view shown. */
export interface SideItems {
  markers?: readonly TranscriptMarkerView[] | undefined;
  outline?: TranscriptOutlineView | undefined;
}

export const fieldKey = (f: Pick<SideField, 'kind' | 'id'>): string => `${f.kind}:${f.id}`;

/**
 * The change that saves a field: only what differs from what is shown; null when nothing does, or
 * the marker, chapter or quote is no longer there. An emptied title or quote keeps the old one
 * (as the panels' Save does).
 */
export function sideEdit(f: SideField, items: SideItems): TranscriptEdit | null {
  switch (f.kind) {
    case 'marker': {
      const m = items.markers?.find((x) => x.id === f.id);
      if (!m) return null;
      const patch: { name?: string; note?: string; colour?: MarkerColourView } = {};
      if (f.name.trim() !== m.name) patch.name = f.name;
      if (f.note.trim() !== m.note) patch.note = f.note;
      if (f.colour !== m.colour) patch.colour = f.colour;
      return Object.keys(patch).length > 0 ? { kind: 'updateMarker', id: f.id, ...patch } : null;
    }
    case 'chapter': {
      const c = items.outline?.chapters.find((x) => x.id === f.id);
      const title = f.title.trim();
      return c && title !== '' && title !== c.title ? { kind: 'updateChapter', id: f.id, title } : null;
    }
    case 'quote': {
      const q = items.outline?.quotes.find((x) => x.id === f.id);
      const text = f.text.trim();
      return q && text !== '' && text !== q.text ? { kind: 'updateQuote', id: f.id, text } : null;
    }
  }
}

/** The few calls of the Web Storage API used here (localStorage; a Map in tests). */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The side fields of one job typed and not yet saved, kept in storage as they are typed. */
export class DraftShelf {
  readonly #key: string;
  readonly #storage: DraftStorage | undefined;

  constructor(jobId: string, storage: DraftStorage | undefined = globalThis.localStorage) {
    this.#key = `sluice-review-drafts:${jobId}`;
    this.#storage = storage;
  }

  pending(): SideField[] {
    try {
      const raw = this.#storage?.getItem(this.#key);
      const list: unknown = raw ? JSON.parse(raw) : [];
      return Array.isArray(list) ? list.filter(isField) : [];
    } catch {
      return [];
    }
  }

  /** Keeps what the field holds now, in place of what it held before. */
  put(f: SideField): void {
    this.#write([...this.pending().filter((x) => fieldKey(x) !== fieldKey(f)), f]);
  }

  /** Forgets a field: saved, cancelled, or left as it was. */
  drop(key: string): void {
    const list = this.pending();
    const rest = list.filter((x) => fieldKey(x) !== key);
    if (rest.length !== list.length) this.#write(rest);
  }

  #write(list: readonly SideField[]): void {
    try {
      if (list.length === 0) this.#storage?.removeItem(this.#key);
      else this.#storage?.setItem(this.#key, JSON.stringify(list));
    } catch {
      // Storage full or refused: the field still saves on leaving, only a closed window loses it.
    }
  }
}

/** The field an edit saves, when it carries typed text (a move to the playhead does not). */
export function editKey(edit: TranscriptEdit): string | null {
  if (edit.kind === 'updateMarker' && (edit.name ?? edit.note ?? edit.colour) !== undefined)
    return fieldKey({ kind: 'marker', id: edit.id });
  if (edit.kind === 'updateChapter' && edit.title !== undefined) return fieldKey({ kind: 'chapter', id: edit.id });
  if (edit.kind === 'updateQuote' && edit.text !== undefined) return fieldKey({ kind: 'quote', id: edit.id });
  return null;
}

/** Fields being saved in this page right now: not saved a second time by a review opening meanwhile. */
const saving = new Set<string>();

/**
 * The side fields of one open review: kept as typed, forgotten once saved, and what an earlier page
 * left unsaved saved when the review opens again.
 */
export class SideDrafts {
  readonly #shelf: DraftShelf;
  readonly #apply: (edit: TranscriptEdit) => Promise<boolean>;

  constructor(jobId: string, apply: (edit: TranscriptEdit) => Promise<boolean>, storage?: DraftStorage) {
    this.#shelf = new DraftShelf(jobId, storage);
    this.#apply = apply;
  }

  /** A field's text as typed (null: saved, cancelled or unchanged, so nothing to keep). */
  keep(key: string, field: SideField | null): void {
    if (field) this.#shelf.put(field);
    else this.#shelf.drop(key);
  }

  /** Saves a change; the field it came from is forgotten once main has it. */
  async apply(edit: TranscriptEdit): Promise<boolean> {
    const key = editKey(edit);
    if (key) saving.add(key);
    try {
      const ok = await this.#apply(edit);
      if (ok && key) this.#shelf.drop(key);
      return ok;
    } finally {
      if (key) saving.delete(key);
    }
  }

  /**
   * Saves what an earlier page left typed and unsaved (closed, reloaded, Sluice gone meanwhile),
   * against the items as they are now; answers what was saved. A field whose text is already there,
   * or whose item is gone, is forgotten; one that could not be saved stays for next time.
   */
  async recover(items: () => SideItems): Promise<SideField[]> {
    const saved: SideField[] = [];
    for (const f of this.#shelf.pending()) {
      const key = fieldKey(f);
      if (saving.has(key)) continue;
      const edit = sideEdit(f, items());
      if (!edit) this.#shelf.drop(key);
      else if (await this.apply(edit)) saved.push(f);
    }
    return saved;
  }

  /** The page is going (closed, reloaded): sends every field still typed, without waiting. */
  flush(items: SideItems, send: (edit: TranscriptEdit) => void): void {
    for (const f of this.#shelf.pending()) {
      const edit = sideEdit(f, items);
      if (edit && !saving.has(fieldKey(f))) send(edit);
    }
  }
}

function isField(x: unknown): x is SideField {
  if (typeof x !== 'object' || x === null) return false;
  const f = x as Record<string, unknown>;
  if (typeof f.id !== 'string') return false;
  if (f.kind === 'marker')
    return typeof f.name === 'string' && typeof f.note === 'string' && typeof f.colour === 'string';
  if (f.kind === 'chapter') return typeof f.title === 'string';
  return f.kind === 'quote' && typeof f.text === 'string';
}

/** "marker “Crane delay”, chapter “Opening”": what was kept, for the sentence that says so. */
export function describeFields(fields: readonly SideField[]): string {
  return fields
    .map((f) => {
      const text = f.kind === 'marker' ? f.name || f.note : f.kind === 'chapter' ? f.title : f.text;
      const short = text.length > 40 ? `${text.slice(0, 39)}…` : text;
      return `${f.kind === 'marker' ? 'marker' : f.kind === 'chapter' ? 'chapter' : 'quote'} “${short.trim()}”`;
    })
    .join(', ');
}
