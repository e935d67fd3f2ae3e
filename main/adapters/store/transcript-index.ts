// History's search inside transcripts. Each completed job's transcript (corrections applied) is
// kept as search lines in `<state>/search/<jobId>.json` (private, replaced atomically), written as
// the job completes or is corrected; in memory, an inverted index from folded words to jobs answers
// a query without reading any transcript. The files are the index's source: a missing or damaged
// one is rebuilt from the job's kept export, and the memory index from the files on first use.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { bestLine, searchLines, searchTokens, type SearchLine } from '../../engine/transcript/search-text.js';
import { writeFileAtomic } from '../results/result-writer.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js';

/** A job's transcript as the index takes it, with what identifies that version of it. */
export interface IndexSource {
  /** Changes whenever the words do (the export's hash and the corrections' revision). */
  key: string;
  words: ReadonlyArray<{ text: string; startMs: number }>;
}

export interface TranscriptIndexDeps {
  dir: string;
  /** The jobs whose transcripts belong in the index (completed, with a kept export). */
  jobIds: () => string[];
  /** The job's current transcript; undefined when it has none. */
  source: (jobId: string) => Promise<IndexSource | undefined>;
}

/** The line that holds a hit, and where in the media the hit starts (milliseconds). */
export interface TranscriptMatch {
  text: string;
  atMs: number;
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

export class TranscriptIndex {
  /** Doc number → job id ('' once replaced by a newer version of the job's transcript). */
  private docs: string[] = [];
  private readonly docOf = new Map<string, { doc: number; key: string }>();
  private readonly postings = new Map<string, number[]>();
  private vocab: string[] | undefined;
  private built: Promise<void> | undefined;

  constructor(private readonly d: TranscriptIndexDeps) {}

  private fileOf(jobId: string): string {
    return path.join(this.d.dir, `${jobId}.json`);
  }

  /** Indexes (or re-indexes) a job's transcript; a no-op when this version is already in. */
  async update(jobId: string): Promise<void> {
    const src = await this.d.source(jobId);
    if (!src || this.docOf.get(jobId)?.key === src.key) return;
    const doc: DocFile = { v: 1, key: src.key, lines: searchLines(src.words) };
    await mkdir(this.d.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await writeFileAtomic(this.fileOf(jobId), JSON.stringify(doc), { mode: PRIVATE_FILE_MODE });
    this.add(jobId, doc);
  }

  private add(jobId: string, doc: DocFile): void {
    const old = this.docOf.get(jobId);
    if (old) this.docs[old.doc] = '';
    const n = this.docs.length;
    this.docs.push(jobId);
    this.docOf.set(jobId, { doc: n, key: doc.key });
    const seen = new Set<string>();
    for (const line of doc.lines) for (const w of line.words) for (const t of searchTokens(w)) seen.add(t);
    for (const t of seen) {
      const list = this.postings.get(t);
      if (list) list.push(n);
      else {
        this.postings.set(t, [n]);
        this.vocab = undefined;
      }
    }
  }

  /** Reads every job's search file into memory, rebuilding those that are missing or damaged. */
  build(): Promise<void> {
    return (this.built ??= (async () => {
      for (const jobId of this.d.jobIds()) {
        if (this.docOf.has(jobId)) continue;
        const doc = await this.read(jobId);
        if (doc) this.add(jobId, doc);
        else await this.update(jobId).catch(() => undefined);
      }
    })());
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
    await this.build();
    const sets = terms.map((t) => this.docsFor(t)).sort((a, b) => a.size - b.size);
    const ids = new Set<string>();
    for (const n of sets[0] ?? []) {
      if (sets.every((s) => s.has(n)) && this.docs[n]) ids.add(this.docs[n]);
    }
    return {
      has: (jobId) => ids.has(jobId),
      ids: () => ids,
      match: async (jobId) => {
        if (!ids.has(jobId)) return undefined;
        const doc = await this.read(jobId);
        return doc ? bestLine(doc.lines, terms) : undefined;
      },
    };
  }
}
