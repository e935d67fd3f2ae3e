// History's query finds jobs by file name folded as transcript words are: a name macOS handed over
// decomposed (NFD) is found by what an editor types on a keyboard, with or without its accents.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobStore } from '../../main/adapters/store/journal/job-store.js';
import type { JobRecord } from '../../main/engine/job.js';
import { ExternalStreams, History } from '../../main/runtime/history.js';
import { base } from '../engine/fixtures.js';

const NAMES = [
  'Interview Jürgen Köln.mp4'.normalize('NFD'),
  'Straßenumfrage Köln Ü-Wagen.mp4',
  'Entretien – Hélène Dubois (prise 2).mov',
  'zoom_lr.wav',
];

let dir: string;
let store: JobStore<JobRecord>;
let history: History;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-history-search-'));
  store = JobStore.open<JobRecord>(dir, { fsync: 'never' });
  NAMES.forEach((name, i) => {
    const job = base();
    store.put({
      ...job,
      id: `job-${i}`,
      createdAt: job.createdAt + i,
      source: { ...job.source, path: `/media/${name}` },
    });
  });
  history = new History({
    store,
    external: new ExternalStreams(async function* () {}),
    searchTranscripts: () => Promise.resolve(undefined),
  });
});
afterEach(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

async function names(search: string): Promise<string[]> {
  const r = await history.query({ search, includeExternal: false, sort: { by: 'name', dir: 'asc' } });
  return r.items.map((i) => (i.origin === 'local' ? path.basename(i.job.source.path) : i.stream.name));
}

describe("History's search by file name", () => {
  it('finds the decomposed name by jurgen, Jürgen and Köln typed composed, and koln', async () => {
    for (const q of ['jurgen', 'Jürgen', 'Köln', 'KOLN jurgen']) {
      expect(await names(q), q).toContain(NAMES[0]);
    }
    expect(await names('koln')).toEqual([NAMES[0], NAMES[1]]);
  });

  it('ignores accents, ß and case in names, as it does in transcripts', async () => {
    expect(await names('strasse')).toEqual([NAMES[1]]);
    expect(await names('helene')).toEqual([NAMES[2]]);
    expect(await names('HÉLÈNE')).toEqual([NAMES[2]]);
    expect(await names('ZOOM_LR')).toEqual([NAMES[3]]);
    expect(await names('paris')).toEqual([]);
  });

  it('sorts by name as folded, so an accented name sits among its unaccented neighbours', async () => {
    for (const name of ['Émile take 1.wav', 'Fabien take 1.wav']) {
      const job = base();
      store.put({ ...job, id: name, source: { ...job.source, path: `/media/${name}` } });
    }
    expect(await names('take 1')).toEqual(['Émile take 1.wav', 'Fabien take 1.wav']);
    expect(await names('')).toEqual(['Émile take 1.wav', NAMES[2], 'Fabien take 1.wav', NAMES[0], NAMES[1], NAMES[3]]);
  });
});
