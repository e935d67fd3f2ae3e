// History's search inside transcripts: folded words (case, accents, ß), several words in any order,
// the line and time of a hit, and an index that follows changes and rebuilds what was lost.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TranscriptIndex,
  type IndexSource,
  type TranscriptHits,
} from '../../../../main/adapters/store/search/transcript-index.js';
import { prefixEnd } from '../../../../main/adapters/store/search/transcript-postings.js';
import { openSqlite, sqliteDriver } from '../../../../main/adapters/store/sqlite.js';
import { foldText, searchLines, searchTokens } from '../../../../main/engine/transcript/search-text.js';

const words = (text: string, stepMs = 500, from = 0) =>
  text.split(' ').map((t, i) => ({ text: t, startMs: from + i * stepMs }));

let dir: string;
let sources: Map<string, IndexSource>;
let reads: string[];
let opened: TranscriptIndex[];
/** An index over `sources`; `sqlite: false` keeps it in memory, as on a Node without SQLite. */
const index = (sqlite = false) => {
  const ix = new TranscriptIndex({
    dir,
    sqlite,
    jobIds: () => [...sources.keys()],
    source: async (id) => {
      reads.push(id);
      return sources.get(id);
    },
  });
  opened.push(ix);
  return ix;
};

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-index-'));
  reads = [];
  opened = [];
  const filler = Array.from({ length: 40 }, (_, i) => `filler${i}`).join(' ');
  sources = new Map([
    ['a', { key: 'a1', words: words(`${filler} Die Straßen von Köln sind heute gesperrt.`) }],
    ['b', { key: 'b1', words: words('Der Verkehr in Köln fließt wieder normal.') }],
    ['c', { key: 'c1', words: words('Nothing about cities here.') }],
  ]);
});
afterEach(async () => {
  for (const ix of opened) await ix.close();
  await rm(dir, { recursive: true, force: true });
});

describe('folding', () => {
  it('ignores case and accents, ß is ss', () => {
    expect(foldText('Straßen CAFÉ Ærø ẞ')).toBe('strassen cafe ærø ss');
    expect(searchTokens('  Köln, (heute)! 2024 ')).toEqual(['koln', 'heute', '2024']);
  });

  it('cuts a transcript into lines of about 120 characters, each word with its time', () => {
    const lines = searchLines(words(Array.from({ length: 100 }, () => 'word').join(' '), 100));
    expect(lines.every((l) => l.words.join(' ').length <= 120)).toBe(true);
    expect(lines.flatMap((l) => l.at)).toEqual(Array.from({ length: 100 }, (_, i) => i * 100));
  });
});

describe('TranscriptIndex in memory', () => {
  it('finds "strassen" in "Straßen", several words in any order, and gives the line and its time', async () => {
    const ix = index();
    const hits = await ix.search('strassen');
    expect(['a', 'b', 'c'].filter((id) => hits?.has(id))).toEqual(['a']);
    const m = await hits?.match('a');
    expect(m?.text).toContain('Straßen von Köln');
    expect(m?.text.length).toBeLessThanOrEqual(120);
    expect(m?.atMs).toBe(41 * 500);
    // The word that holds the term, as a range of the line: shown highlighted.
    expect(m?.hits?.map(([a, b]) => m.text.slice(a, b))).toEqual(['Straßen']);

    const both = await ix.search('KOLN gesperrt');
    expect(['a', 'b', 'c'].filter((id) => both?.has(id))).toEqual(['a']);
    const any = await ix.search('köln');
    expect(['a', 'b', 'c'].filter((id) => any?.has(id))).toEqual(['a', 'b']);
    expect((await ix.search('fliesst'))?.has('b')).toBe(true);
    expect((await ix.search('koln berlin'))?.has('a')).toBe(false);
    expect(await ix.search('  ')).toBeUndefined();
  });

  it('follows a corrected transcript and keeps its files private', async () => {
    const ix = index();
    await ix.build();
    sources.set('c', { key: 'c2', words: words('Now it mentions Zürich.') });
    await ix.update('c');
    expect((await ix.search('zurich'))?.has('c')).toBe(true);
    expect((await ix.search('cities'))?.has('c')).toBe(false);
    if (process.platform !== 'win32') expect((await stat(path.join(dir, 'c.json'))).mode & 0o777).toBe(0o600);
  });

  it('rebuilds from the transcripts when its files are deleted or damaged, and reads them otherwise', async () => {
    await index().build();
    expect((await readdir(dir)).sort()).toEqual(['a.json', 'b.json', 'c.json']);
    reads = [];
    const warm = index();
    expect((await warm.search('strassen'))?.has('a')).toBe(true);
    expect(reads).toEqual([]);

    await rm(path.join(dir, 'a.json'));
    await writeFile(path.join(dir, 'b.json'), '{ not json');
    reads = [];
    const rebuilt = index();
    expect((await rebuilt.search('strassen'))?.has('a')).toBe(true);
    expect((await rebuilt.search('verkehr'))?.has('b')).toBe(true);
    expect(reads.sort()).toEqual(['a', 'b']);
  });
});

describe.skipIf(!sqliteDriver())('TranscriptIndex in SQLite', () => {
  const found = (hits: TranscriptHits | undefined) => [...(hits?.ids() ?? [])].sort();
  const jsonFiles = async () => (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();

  it("answers a fresh start's first search from its tables, without the search files", async () => {
    const first = index(true);
    await first.build();
    expect(await jsonFiles()).toEqual(['a.json', 'b.json', 'c.json']);
    if (process.platform !== 'win32') expect((await stat(path.join(dir, 'postings.sqlite'))).mode & 0o777).toBe(0o600);
    await first.close();

    // The files of the jobs that do not match are gone or damaged: the tables alone decide.
    await rm(path.join(dir, 'c.json'));
    await writeFile(path.join(dir, 'b.json'), '{ not json');
    reads = [];
    const fresh = index(true);
    const hits = await fresh.search('strassen GESPERRT');
    expect(found(hits)).toEqual(['a']);
    expect(found(await fresh.search('koln'))).toEqual(['a', 'b']);
    expect(found(await fresh.search('cit'))).toEqual(['c']);
    expect(reads).toEqual([]);
    // The line comes from the hit's own file; one lost is written again from its transcript.
    expect((await hits?.match('a'))?.text).toContain('Straßen von Köln');
    expect(reads).toEqual([]);
    const lost = await fresh.search('verkehr');
    expect((await lost?.match('b'))?.text).toContain('Verkehr in Köln');
    expect(reads).toEqual(['b']);
    expect(await jsonFiles()).toEqual(['a.json', 'b.json']);
  });

  it('fills its tables once from the search files already there, and again when of another schema', async () => {
    await index(false).build(); // the files as a version without the tables left them
    reads = [];
    const migrated = index(true);
    expect(found(await migrated.search('strassen'))).toEqual(['a']);
    expect(reads).toEqual([]); // taken from the files, not the transcripts
    await migrated.close();

    const db = openSqlite(path.join(dir, 'postings.sqlite'))!;
    db.exec("UPDATE meta SET v = 0 WHERE k = 'schema'; DELETE FROM postings;");
    db.close();
    await rm(path.join(dir, 'a.json'));
    const refilled = index(true);
    expect(found(await refilled.search('strassen'))).toEqual(['a']);
    expect(found(await refilled.search('fliesst'))).toEqual(['b']);
    expect(reads).toEqual(['a']); // the lost file rebuilt from its transcript while filling
  });

  it("drops a corrected job's old words, at once and after a start, even with its old file lost", async () => {
    const ix = index(true);
    await ix.build();
    sources.set('c', { key: 'c2', words: words('Now it mentions Zürich.') });
    await ix.update('c');
    expect(found(await ix.search('zurich'))).toEqual(['c']);
    expect(found(await ix.search('cities'))).toEqual([]);

    await rm(path.join(dir, 'b.json'));
    sources.set('b', { key: 'b2', words: words('Der Verkehr in Bonn staut sich.') });
    await ix.update('b');
    await ix.close();
    const fresh = index(true);
    expect(found(await fresh.search('koln'))).toEqual(['a']);
    expect(found(await fresh.search('bonn verkehr'))).toEqual(['b']);
    expect(found(await fresh.search('cities'))).toEqual([]);
    expect(found(await fresh.search('zur'))).toEqual(['c']);
  });

  it('indexes again a job whose file was being replaced when the process stopped', async () => {
    const ix = index(true);
    await ix.build();
    await ix.close();
    // As a stop between the file's replacement and the tables' update leaves it.
    const db = openSqlite(path.join(dir, 'postings.sqlite'))!;
    db.exec("INSERT INTO pending(id) VALUES('c')");
    db.close();
    sources.set('c', { key: 'c2', words: words('Now it mentions Zürich.') });
    const fresh = index(true);
    await fresh.build();
    expect(found(await fresh.search('zurich'))).toEqual(['c']);
    expect(found(await fresh.search('cities'))).toEqual([]);
  });

  it('takes in, soon after a start, a job that completed while it was not following', async () => {
    const ix = index(true);
    await ix.build();
    await ix.close();
    sources.set('d', { key: 'd1', words: words('Hochwasser am Rhein.') });
    reads = [];
    const fresh = index(true);
    expect(found(await fresh.search('rhein'))).toEqual([]); // the first search does not wait for it
    fresh.warm(0);
    await new Promise((r) => setTimeout(r, 20));
    await fresh.build(); // the one the warm-up started
    expect(found(await fresh.search('rhein'))).toEqual(['d']);
    expect(reads).toEqual(['d']);
  });

  it('finds what a plain scan finds, over a few hundred random transcripts', async () => {
    let x = 12345;
    const rnd = (n: number) => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x % n;
    };
    const syl = ['ka', 'lo', 'mi', 'ne', 'ßu', 'sä', 'Té', 'vi', 'do', 'pe', 'ñа', 'zu', '9', '😀x'];
    const vocab = Array.from({ length: 600 }, () =>
      Array.from({ length: 1 + rnd(3) }, () => syl[rnd(syl.length)]).join(''),
    );
    sources = new Map();
    for (let d = 0; d < 300; d++) {
      const text = Array.from({ length: 20 + rnd(60) }, () => vocab[rnd(vocab.length)]).join(' ');
      sources.set(`job${d}`, { key: `k${d}`, words: words(text) });
    }
    const tokens = new Map([...sources].map(([id, s]) => [id, s.words.flatMap((w) => searchTokens(w.text))]));
    const scan = (q: string) => {
      const terms = searchTokens(q).filter((t) => t.length >= 2);
      return [...tokens]
        .filter(([, ts]) => terms.every((t) => ts.some((w) => w.startsWith(t))))
        .map(([id]) => id)
        .sort();
    };
    await index(true).build();
    const fresh = index(true);
    const memory = index(false);
    let nonEmpty = 0;
    for (let i = 0; i < 150; i++) {
      const q = Array.from({ length: 1 + rnd(2) }, () => {
        const w = [...searchTokens(vocab[rnd(vocab.length)]!).join('')];
        return w.slice(0, 1 + rnd(w.length)).join('');
      }).join(' ');
      const want = scan(q);
      if (want.length > 0) nonEmpty++;
      if (searchTokens(q).every((t) => t.length < 2)) continue;
      expect(found(await fresh.search(q)), q).toEqual(want);
      expect(found(await memory.search(q)), q).toEqual(want);
    }
    expect(nonEmpty).toBeGreaterThan(50);
  });
});

describe('prefixEnd', () => {
  it('is the prefix with its last code point one higher, past the surrogates and the last code point', () => {
    expect(prefixEnd('ab')).toBe('ac');
    expect(prefixEnd('x\u{1F600}')).toBe('x\u{1F601}');
    expect(prefixEnd('x\uD7FF')).toBe('x\uE000');
    expect(prefixEnd('a\u{10FFFF}')).toBe('b');
    expect(prefixEnd('\u{10FFFF}')).toBeUndefined();
  });
});
