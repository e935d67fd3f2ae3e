// History's search inside transcripts. Each completed job's transcript (corrections applied) is
// kept as search lines in `<state>/search/<jobId>.json` (private, replaced atomically), written as
// the job completes or is corrected; an inverted index from folded words to jobs answers a query
// without reading any transcript. The index is kept in SQLite (transcript-postings.ts), filled once
// from the files and then in step with every update, so the first search after a start reads only
// the postings of its words; without SQLite it is built in memory from the files on first use. The
// files are the index's source: a missing or damaged one is rebuilt from the job's kept export.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { bestLine, searchLines, searchTokens, type SearchLine } from '../../../engine/transcript/search-text.js';
import { writeFileAtomic } from '../../results/result-writer.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.js';
import { TranscriptPostings, type PostedDoc } from './transcript-postings.js';

/** A job's transcript as the index takes it, with what identifies that version of it. */
export interface IndexSource {
  /** Changes whenever the words do (the export's hash and the corrections' revision). */
  key: string;
  words: ReadonlyArray<{ text: string; startMs: number }>;
  /**
   * Names the editor gave speakers ("Hélène Dubois" for Speaker 2), each with where that speaker is
   * first heard: searchable like the words, a hit plays from there.
   */
  names?: ReadonlyArray<{ name: string; startMs: number }>;
}

/** A version of a transcript as search lines: its words, then one line per speaker's name. */
function linesOf(src: IndexSource): SearchLine[] {
  const names = (src.names ?? []).map((n) => {
    const words = n.name.split(/\s+/u).filter((w) => w !== '');
    return { words, at: words.map(() => n.startMs) };
  });
  return [...searchLines(src.words), ...names.filter((l) => l.words.length > 0)];
}

export interface TranscriptIndexDeps {
  dir: string;
  /** The jobs whose transcripts belong in the index (completed, with a kept export). */
  jobIds: () => string[];
  /** The job's current transcript; undefined when it has none. */
  source: (jobId: string) => Promise<IndexSource | undefined>;
  /** False keeps the index in memory only, as without SQLite (default true). */
  sqlite?: boolean;
}

/** The line that holds a hit, and where in the media the hit starts (milliseconds). */
export interface TranscriptMatch {
  text: string;
  atMs: number;
  /** The words that hold a searched term, as [start, end) character ranges of `text`. */
  hits?: Array<[number, number]>;
}

/** The jobs a query found, and for any of them the line to show. */
export interface TranscriptHits {
  has(jobId: string): boolean;
  /** Every job found. */
  ids(): Iterable<string>;
  match(jobId: string): Promise<TranscriptMatch | undefined>;
}

interface DocFile {
  v: 1;
  key: string;
  lines: SearchLine[];
}

const MIN_TERM = 2;
/** Search files read before their postings go in, in one transaction, when filling the tables. */
const FILL_BATCH = 200;
/** How long after a start the tables are brought up to date (see `warm`). */
const WARM_DELAY_MS = 3000;

/** The distinct folded words of a version of a transcript. */
function termsOf(doc: DocFile): Set<string> {
  const seen = new Set<string>();
  for (const line of doc.lines) for (const w of line.words) for (const t of searchTokens(w)) seen.add(t);
  return seen;
}

export class TranscriptIndex {
  /** Doc number → job id ('' once replaced by a newer version of the job's transcript). */
  private docs: string[] = [];
  private readonly docOf = new Map<string, { doc: number; key: string }>();
  private readonly postings = new Map<string, number[]>();
  private vocab: string[] | undefined;
  private built: Promise<void> | undefined;
  /** The SQLite tables; null when there are none (no SQLite, or not wanted): memory only. */
  private db: TranscriptPostings | null | undefined;
  private closed = false;
  private warming: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly d: TranscriptIndexDeps) {}

  private tables(): TranscriptPostings | null {
    if (this.db === undefined) {
      this.db = (this.d.sqlite !== false && !this.closed && TranscriptPostings.open(this.d.dir)) || null;
    }
    return this.db;
  }

  private fileOf(jobId: string): string {
    return path.join(this.d.dir, `${jobId}.json`);
  }

  /** Indexes (or re-indexes) a job's transcript; a no-op when this version is already in. */
  async update(jobId: string): Promise<void> {
    const src = await this.d.source(jobId);
    const db = this.tables();
    const current = db ? db.keyOf(jobId) : this.docOf.get(jobId)?.key;
    if (!src || current === src.key) return;
    const doc: DocFile = { v: 1, key: src.key, lines: linesOf(src) };
    // The words of the version being replaced, to drop its postings (a correction is rare).
    const before = db && current !== undefined ? await this.read(jobId) : undefined;
    if (db && !this.closed) db.markPending(jobId);
    await mkdir(this.d.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await writeFileAtomic(this.fileOf(jobId), JSON.stringify(doc), { mode: PRIVATE_FILE_MODE });
    if (db && !this.closed) {
      const old = new Map(before ? [[jobId, termsOf(before)]] : []);
      db.put([{ id: jobId, key: doc.key, terms: termsOf(doc) }], { old });
    } else if (!db) this.add(jobId, doc);
  }

  private add(jobId: string, doc: DocFile): void {
    const old = this.docOf.get(jobId);
    if (old) this.docs[old.doc] = '';
    const n = this.docs.length;
    this.docs.push(jobId);
    this.docOf.set(jobId, { doc: n, key: doc.key });
    for (const t of termsOf(doc)) {
      const list = this.postings.get(t);
      if (list) list.push(n);
      else {
        this.postings.set(t, [n]);
        this.vocab = undefined;
      }
    }
  }

  /**
   * Brings the index up to every job's search file, rebuilding those that are missing or damaged.
   * With SQLite: the first time, every file is read into the tables (batches, each committed, so
   * an interrupted fill resumes); after that only jobs not in yet and pending ones are taken. In
   * memory: every file is read. Once per instance; `close` stops it between batches.
   */
  build(): Promise<void> {
    return (this.built ??= (async () => {
      const db = this.tables();
      if (db) return this.fill(db);
      for (const jobId of this.d.jobIds()) {
        if (this.docOf.has(jobId)) continue;
        const doc = await this.read(jobId);
        if (doc) this.add(jobId, doc);
        else await this.update(jobId).catch(() => undefined);
      }
    })());
  }

  /**
   * Writes a job's search file again from its transcript (it was found missing or damaged after the
   * tables had taken it in), re-indexing the job when its words have changed since.
   */
  private async rewrite(jobId: string): Promise<DocFile | undefined> {
    const db = this.tables();
    const src = await this.d.source(jobId).catch(() => undefined);
    if (!src || !db || this.closed) return undefined;
    const doc: DocFile = { v: 1, key: src.key, lines: linesOf(src) };
    db.markPending(jobId);
    await mkdir(this.d.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await writeFileAtomic(this.fileOf(jobId), JSON.stringify(doc), { mode: PRIVATE_FILE_MODE });
    if (this.closed) return doc;
    if (db.keyOf(jobId) === src.key) db.clearPending(jobId);
    else db.put([{ id: jobId, key: doc.key, terms: termsOf(doc) }]);
    return doc;
  }

  private async fill(db: TranscriptPostings): Promise<void> {
    for (const id of db.pendingIds()) {
      if (this.closed) return;
      db.forget(id);
      await this.update(id).catch(() => undefined);
    }
    const ids = this.d.jobIds().filter((id) => db.keyOf(id) === undefined);
    for (let i = 0; i < ids.length; i += FILL_BATCH) {
      if (this.closed) return;
      const batch: PostedDoc[] = [];
      const lost: string[] = [];
      for (const id of ids.slice(i, i + FILL_BATCH)) {
        const doc = await this.read(id);
        if (doc) batch.push({ id, key: doc.key, terms: termsOf(doc) });
        else lost.push(id);
      }
      if (this.closed) return;
      // A job indexed meanwhile by `update` is newer than the file read here: it stays.
      db.put(batch, { ifAbsent: true });
      for (const id of lost) await this.update(id).catch(() => undefined);
    }
    if (!this.closed) db.markFilled();
  }

  private async read(jobId: string): Promise<DocFile | undefined> {
    try {
      const doc = JSON.parse(await readFile(this.fileOf(jobId), 'utf8')) as DocFile;
      if (doc.v !== 1 || typeof doc.key !== 'string' || !Array.isArray(doc.lines)) return undefined;
      return doc;
    } catch {
      return undefined;
    }
  }

  /** Documents holding a word that starts with `term`. */
  private docsFor(term: string): Set<number> {
    const vocab = (this.vocab ??= [...this.postings.keys()].sort());
    let lo = 0;
    let hi = vocab.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (vocab[mid]! < term) lo = mid + 1;
      else hi = mid;
    }
    const out = new Set<number>();
    for (let i = lo; i < vocab.length && vocab[i]!.startsWith(term); i++)
      for (const n of this.postings.get(vocab[i]!)!) out.add(n);
    return out;
  }

  /** Jobs whose transcript holds every word of the query (in any order, each as a word's start). */
  async search(query: string): Promise<TranscriptHits | undefined> {
    const terms = [...new Set(searchTokens(query))].filter((t) => t.length >= MIN_TERM);
    if (terms.length === 0) return undefined;
    const db = this.tables();
    if (db) {
      if (!db.filled) await this.build();
      return this.hits(db.search(terms), terms);
    }
    await this.build();
    const sets = terms.map((t) => this.docsFor(t)).sort((a, b) => a.size - b.size);
    const ids = new Set<string>();
    for (const n of sets[0] ?? []) {
      if (sets.every((s) => s.has(n)) && this.docs[n]) ids.add(this.docs[n]);
    }
    return this.hits(ids, terms);
  }

  private hits(ids: Set<string>, terms: readonly string[]): TranscriptHits {
    return {
      has: (jobId) => ids.has(jobId),
      ids: () => ids,
      match: async (jobId) => {
        if (!ids.has(jobId)) return undefined;
        const doc = (await this.read(jobId)) ?? (await this.rewrite(jobId));
        return doc ? bestLine(doc.lines, terms) : undefined;
      },
    };
  }

  /**
   * With SQLite, soon starts bringing the tables up to date in the background (the fill, once; then the
   * jobs not in yet), so the first search does not wait for it. Without, nothing: memory is built
   * on the first search only.
   */
  warm(delayMs = WARM_DELAY_MS): void {
    if (!this.tables() || this.warming) return;
    // Later than the start itself: listing the jobs reads the archive's summary rows.
    this.warming = setTimeout(() => void this.build().catch(() => undefined), delayMs);
    this.warming.unref?.();
  }

  /** Stops a fill between batches and lets the tables go (updates after this keep files only). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.warming);
    await this.built?.catch(() => undefined);
    this.db?.close();
    this.db = null;
  }
}
