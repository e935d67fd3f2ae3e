// What the user's bookkeeping events do to a record, and that they leave ineligible jobs alone.
import { describe, expect, it } from 'vitest';
import { next } from '../../main/engine/reducer.js';
import { DEFAULT_CAPTIONS } from '../../main/engine/captions/presets.js';
import { ctx, jobs, T0 } from './fixtures.js';

const at = T0 + 1000;

describe('reducer: user bookkeeping', () => {
  it('reordered sets the ordering keys of a queued job only', () => {
    const out = next(jobs.queued(), { type: 'reordered', priority: 0, seq: -3 }, at, ctx);
    expect(out.job).toMatchObject({ priority: 0, seq: -3, updatedAt: at, state: 'queued' });
    expect(out.effects).toEqual([]);
    const busy = jobs.uploading();
    expect(next(busy, { type: 'reordered', priority: 0, seq: -3 }, at, ctx).job).toBe(busy);
  });

  it('dismissRequested hides a finished job, never a running one', () => {
    expect(next(jobs.failed(), { type: 'dismissRequested' }, at, ctx).job).toMatchObject({ dismissed: true });
    const running = jobs.processing();
    expect(next(running, { type: 'dismissRequested' }, at, ctx).job).toBe(running);
  });

  it('resultsRewritten records the new files and output, and clears the last warning', () => {
    const results = [{ format: 'srt' as const, path: '/media/a.srt', writtenBySluice: true }];
    const output = {
      formats: ['srt' as const],
      pattern: '{name}',
      languageSuffix: null,
      txtTimestamps: false,
      captions: DEFAULT_CAPTIONS,
    };
    const out = next(jobs.completedWarn(), { type: 'resultsRewritten', results, output }, at, ctx);
    expect(out.job.results).toEqual(results);
    expect(out.job.output).toEqual(output);
    expect(out.job.resultWarning).toBeUndefined();
    expect(out.job.stagedResultPath).toBeUndefined();
    const failed = jobs.failed();
    expect(next(failed, { type: 'resultsRewritten', results }, at, ctx).job).toBe(failed);
  });

  it('sourceMoved records where the post-action put the source and results', () => {
    const results = [{ format: 'json' as const, path: '/media/done/a.json', writtenBySluice: true }];
    const out = next(jobs.completed(), { type: 'sourceMoved', movedTo: '/media/done/a.wav', results }, at, ctx);
    expect(out.job).toMatchObject({ movedTo: '/media/done/a.wav', results, updatedAt: at });
  });
});
