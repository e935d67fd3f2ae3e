// Where a job's file is now and where it was: the one place every lookup, content check, result
// and name shown reads a renamed or moved clip's path from (engine/source-path.ts).
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../main/engine/job.js';
import { sourceLabel, sourceName } from '../../main/engine/media-link.js';
import { next } from '../../main/engine/reducer.js';
import { currentPath, earlierPaths, movedFromAfter } from '../../main/engine/source-path.js';
import { ctx, jobs, T0 } from './fixtures.js';

type Placed = Pick<JobRecord, 'source' | 'movedTo' | 'movedFrom' | 'sourceKind'>;
const file = (p: string, more: Partial<Placed> = {}): Placed => ({ source: { path: p, size: 1, mtimeMs: 1 }, ...more });

describe('currentPath', () => {
  it.each<[string, Placed, string]>([
    ['never moved: where it was taken', file('/card/C0001.MP4'), '/card/C0001.MP4'],
    ['renamed: the new name', file('/card/C0001.MP4', { movedTo: '/card/C0001_Hafen.MP4' }), '/card/C0001_Hafen.MP4'],
    ['moved to a subfolder', file('/card/C0001.MP4', { movedTo: '/card/Day1/C0001.MP4' }), '/card/Day1/C0001.MP4'],
    [
      'a link is its own identity',
      file('https://x.test/a.mp4', { sourceKind: 'link', movedTo: '/nowhere' }),
      'https://x.test/a.mp4',
    ],
  ])('%s', (_, job, want) => {
    expect(currentPath(job)).toBe(want);
  });

  it('names a renamed clip by its current name, in full and short', () => {
    const job = file('/card/MVI_0042.MOV', { movedTo: '/card/MVI_0042_Hafen_Interview.MOV' });
    expect(sourceName(job)).toBe('MVI_0042_Hafen_Interview.MOV');
    expect(sourceLabel(job)).toBe('/card/MVI_0042_Hafen_Interview.MOV');
  });
});

describe('earlierPaths', () => {
  it.each<[string, Placed, string[]]>([
    ['never moved: none', file('/a/x.wav'), []],
    ['renamed once: the first name', file('/a/x.wav', { movedTo: '/a/y.wav' }), ['/a/x.wav']],
    [
      'renamed twice: both, oldest first',
      file('/a/x.wav', { movedTo: '/a/sub/z.wav', movedFrom: ['/a/y.wav'] }),
      ['/a/x.wav', '/a/y.wav'],
    ],
    [
      'renamed back to its first name: only the name in between',
      file('/a/x.wav', { movedTo: '/a/x.wav', movedFrom: ['/a/y.wav'] }),
      ['/a/y.wav'],
    ],
    [
      'a name had twice is listed once',
      file('/a/x.wav', { movedTo: '/a/z.wav', movedFrom: ['/a/y.wav', '/a/x.wav', '/a/y.wav'] }),
      ['/a/x.wav', '/a/y.wav'],
    ],
  ])('%s', (_, job, want) => {
    expect(earlierPaths(job)).toEqual(want);
  });
});

describe('movedFromAfter', () => {
  it.each<[string, Placed, string, string[]]>([
    ['first move: nothing in between', file('/a/x.wav'), '/a/y.wav', []],
    ['second move: the first new name joins', file('/a/x.wav', { movedTo: '/a/y.wav' }), '/a/z.wav', ['/a/y.wav']],
    ['reported again at the same place: unchanged', file('/a/x.wav', { movedTo: '/a/y.wav' }), '/a/y.wav', []],
  ])('%s', (_, job, to, want) => {
    expect(movedFromAfter(job, to)).toEqual(want);
  });
});

describe('sourceMoved keeps the earlier places', () => {
  it('a clip renamed, then moved to a subfolder: current path and both earlier names', () => {
    const done = jobs.completed();
    const first = next(done, { type: 'sourceMoved', movedTo: '/media/b.mp3', results: [] }, T0 + 1, ctx).job;
    expect(first.movedFrom).toBeUndefined();
    const second = next(first, { type: 'sourceMoved', movedTo: '/media/sub/b.mp3', results: [] }, T0 + 2, ctx).job;
    expect(currentPath(second)).toBe('/media/sub/b.mp3');
    expect(second.movedFrom).toEqual(['/media/b.mp3']);
    expect(earlierPaths(second)).toEqual([done.source.path, '/media/b.mp3']);
  });
});
