// Measurements (printed) with generous bounds: the printed numbers are the point; the bounds only
// catch an order-of-magnitude regression on a slow CI machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobStore, type FsyncMode } from '../../../../main/adapters/store/journal/job-store.js';
import { createJob, type JobRecord } from '../../../../main/engine/job.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-perf-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function realistic(i: number): JobRecord {
  const j = createJob(
    {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      source: {
        path: `/Users/someone/Recordings/2026/meeting-${i}.m4a`,
        size: 48_000_000 + i,
        mtimeMs: 1_760_000_000_000 + i,
      },
      origin: { kind: 'watch', folderId: 'folder-1' },
      seq: i,
      templateId: '668115d123bca7e3509723d4',
      params: { language: ['en', 'de'], diarization: true, speakersNumber: 2 },
      mediaDurationMs: 1_800_000,
    },
    1_760_000_000_000 + i,
  );
  return {
    ...j,
    state: 'completed',
    streamId: `11111111-2222-4333-8444-${String(i).padStart(12, '0')}`,
    uploadConfirmed: true,
    uploadedBytes: j.totalBytes,
    stream: { state: 'COMPLETED', stateDescription: null },
    uploadedAt: j.createdAt + 60_000,
    finalizedAt: j.createdAt + 600_000,
    completedAt: j.createdAt + 620_000,
    results: [
      {
        format: 'json',
        path: `/Users/someone/Recordings/2026/meeting-${i}.json`,
        writtenBySluice: true,
        size: 123_456,
        mtimeMs: 1,
      },
    ],
  };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

describe('JobStore measurements', () => {
  it('loads 100,000 records', () => {
    // Every record back after a reopen; how long the load takes is npm run bench's (history rows).
    const d = path.join(dir, 'load');
    const s = JobStore.open(d, { fsync: 'never' });
    for (let i = 0; i < 100_000; i++) s.put(realistic(i));
    s.close();
    const r = JobStore.open(d);
    console.log(`[job-store] 100k records: ${(fs.statSync(path.join(d, 'jobs.jsonl')).size / 1e6).toFixed(1)} MB`);
    expect(r.size).toBe(100_000);
    expect(r.get(realistic(99_999).id)?.source.path).toBe(realistic(99_999).source.path);
    r.close();
  });

  it.each<FsyncMode>(['never', 'batch', 'always'])('put latency with fsync=%s', (mode) => {
    const s = JobStore.open(path.join(dir, `lat-${mode}`), { fsync: mode });
    for (let i = 0; i < 100; i++) s.put(realistic(i)); // warm-up
    const lat: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const rec = { ...realistic(i % 100), uploadedBytes: i };
      const t = performance.now();
      s.put(rec);
      lat.push(performance.now() - t);
    }
    s.close();
    const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
    console.log(
      `[job-store] put fsync=${mode}: mean ${(mean * 1000).toFixed(0)} µs, p50 ${(pct(lat, 0.5) * 1000).toFixed(0)} µs, ` +
        `p99 ${(pct(lat, 0.99) * 1000).toFixed(0)} µs, max ${pct(lat, 1).toFixed(2)} ms (2,000 puts, 100 ids, auto-compaction on)`,
    );
    expect(pct(lat, 0.5)).toBeLessThan(10);
  });
});
