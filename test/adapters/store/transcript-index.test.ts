// History's search inside transcripts: folded words (case, accents, ß), several words in any order,
// the line and time of a hit, and an index that follows changes and rebuilds what was lost.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TranscriptIndex, type IndexSource } from '../../../main/adapters/store/transcript-index.js';
import { foldText, searchLines, searchTokens } from '../../../main/engine/transcript/search-text.js';

const words = (text: string, stepMs = 500, from = 0) =>
  text.split(' ').map((t, i) => ({ text: t, startMs: from + i * stepMs }));

let dir: string;
let sources: Map<string, IndexSource>;
let reads: string[];
const index = () =>
  new TranscriptIndex({
    dir,
    jobIds: () => [...sources.keys()],
    source: async (id) => {
      reads.push(id);
      return sources.get(id);
    },
  });

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-index-'));
  reads = [];
  const filler = Array.from({ length: 40 }, (_, i) => `filler${i}`).join(' ');
  sources = new Map([
    ['a', { key: 'a1', words: words(`${filler} Die Straßen von Köln sind heute gesperrt.`) }],
    ['b', { key: 'b1', words: words('Der Verkehr in Köln fließt wieder normal.') }],
    ['c', { key: 'c1', words: words('Nothing about cities here.') }],
  ]);
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

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

describe('TranscriptIndex', () => {
  it('finds "strassen" in "Straßen", several words in any order, and gives the line and its time', async () => {
    const ix = index();
    const hits = await ix.search('strassen');
    expect(['a', 'b', 'c'].filter((id) => hits?.has(id))).toEqual(['a']);
    const m = await hits?.match('a');
    expect(m?.text).toContain('Straßen von Köln');
    expect(m?.text.length).toBeLessThanOrEqual(120);
    expect(m?.atMs).toBe(41 * 500);

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
