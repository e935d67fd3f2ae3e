// The rule on writing over another run's results: never over review work not asked to be replaced.
// A re-run may replace the run it re-runs once that run's work is carried; any other run, or a
// re-run whose carry failed, writes beside results holding review work, even work it cannot read.
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../main/engine/job.js';
import { NO_REVIEW, type ReviewCounts } from '../../main/engine/transcript/review-carry.js';
import { ReviewGuard, type ReviewPort } from '../../main/runtime/review-guard.js';
import { base } from '../engine/fixtures.js';

const STAMP = { size: 10, mtimeMs: 5 };
const job = (id: string, extra: Partial<JobRecord> = {}): JobRecord => ({ ...base(), id, ...extra });

/** Files by writer, each Sluice's own; `work` per job, or a throw for work that cannot be read. */
function guardOf(
  writing: JobRecord,
  work: Record<string, ReviewCounts | Error>,
  carry: ReviewPort['carry'] = async () => undefined,
): ReviewGuard {
  const jobs = new Map(['earlier', 'other', 'unread', 'plain', writing.id].map((id) => [id, job(id)]));
  const port: ReviewPort = {
    carry,
    work: async (j) => {
      const w = work[j.id] ?? NO_REVIEW;
      if (w instanceof Error) throw w;
      return w;
    },
  };
  return new ReviewGuard(
    writing,
    { get: (id) => jobs.get(id) },
    { isOurs: (p) => !p.startsWith('/theirs'), writerOf: (p) => p.split('/')[2] },
    port,
  );
}

const REVIEWED: ReviewCounts = { ...NO_REVIEW, corrections: 5, speakerNames: 1, markers: 1 };

describe('writing over another run’s results', () => {
  it('another run: over plain results, beside reviewed ones, and says so', async () => {
    const g = guardOf(job('new'), { other: REVIEWED });
    expect(await g.isOurs('/ours/plain/C0001.srt', STAMP)).toBe(true);
    expect(await g.isOurs('/ours/new/C0001.srt', STAMP)).toBe(true);
    expect(await g.isOurs('/theirs/x/C0001.srt', STAMP)).toBe(false);
    expect(g.beside()).toBeUndefined();
    expect(await g.isOurs('/ours/other/C0001.srt', STAMP)).toBe(false);
    expect(g.beside()).toEqual({
      outcome: 'beside',
      from: 'other',
      note: "Results written beside the earlier run's, not over them: those hold review work (5 corrections, 1 speaker name and 1 marker) that this transcript does not have.",
    });
  });

  it('work that cannot be read counts as work', async () => {
    const g = guardOf(job('new'), { unread: new Error('no transcript kept') });
    expect(await g.isOurs('/ours/unread/C0001.srt', STAMP)).toBe(false);
    expect(g.beside()?.note).toMatch(/those hold review work that this transcript does not have/);
  });

  it('a re-run replaces the run it re-runs once its work is carried, and says what was carried', async () => {
    const g = guardOf(job('new', { replaces: 'earlier' }), { earlier: REVIEWED }, async () => ({
      changes: [],
      carried: REVIEWED,
      notPlaced: ['“harbour office” at 0:12: the new transcript has other words there'],
    }));
    expect(await g.carry('/state/exports/new.json')).toEqual({
      outcome: 'carried',
      from: 'earlier',
      note: 'Review work of the earlier run carried over: 5 corrections, 1 speaker name and 1 marker. Not placed (kept with the earlier run): “harbour office” at 0:12: the new transcript has other words there.',
    });
    expect(await g.isOurs('/ours/earlier/C0001.srt', STAMP)).toBe(true);
    expect(g.beside()).toBeUndefined();
    expect(g.kept('earlier')).toBe(false);
  });

  it('a re-run whose carry failed writes beside the reviewed run instead', async () => {
    const g = guardOf(job('new', { replaces: 'earlier' }), { earlier: REVIEWED }, async () => {
      throw new Error('disk error');
    });
    expect(await g.carry('/state/exports/new.json')).toBeUndefined();
    expect(await g.isOurs('/ours/earlier/C0001.srt', STAMP)).toBe(false);
    expect(g.beside()?.from).toBe('earlier');
    // So the earlier results are not removed as superseded either.
    expect(g.kept('earlier')).toBe(true);
  });
});
