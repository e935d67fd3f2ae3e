// A folder's list of skipped files: each with why and what to do, the editor's Ignore holding only
// while the file is as it was, the newest kept when there are too many. Time is passed in.
import { describe, expect, it } from 'vitest';
import {
  countWords,
  folderSkipList,
  noteSkip,
  skipLabel,
  skipWords,
  SKIPS_KEPT,
  stillIgnored,
  type SkipEntry,
} from '../../main/engine/folder-skips.js';
import { neverWholeWords } from '../../main/engine/container-whole.js';

const T0 = 1_800_000_000_000;

describe('skipWords', () => {
  it.each([
    ['empty', undefined, 'Empty (0 bytes).', /copy the file again/],
    ['dangling-link', undefined, 'A link to a file that is not there.', /Connect the drive/],
    [
      'second-copy',
      'iPhone/IMG_0001.MOV',
      'A second copy of iPhone/IMG_0001.MOV, which is already processed or queued.',
      /billed once/,
    ],
  ] as const)('%s says why and what to do', (reason, detail, why, todo) => {
    const w = skipWords(reason, detail);
    expect(w.why).toBe(why);
    expect(w.todo).toMatch(todo);
  });

  it("a file not whole is told in the watcher's words, as a sentence, with Retry and Ignore", () => {
    const w = skipWords(
      'never-whole',
      'unchanged for 3 min and not a complete MP4: no index (moov); the camera may have stopped mid-recording. It is taken at once if it changes.',
    );
    expect(w.why).toMatch(/^Unchanged for 3 min and not a complete MP4: no index \(moov\)/);
    expect(w.todo).toMatch(/Retry checks it now; Ignore stops reporting it until it changes/);
  });

  it('labels and counts in editor words', () => {
    expect(skipLabel('dangling-link')).toBe('Link to nowhere');
    expect(skipLabel('never-whole')).toBe('Not whole');
    expect(countWords('second-copy', 2)).toBe('2 second copies');
    expect(countWords('second-copy', 1)).toBe('1 second copy');
    expect(countWords('dangling-link', 3)).toBe('3 links to nowhere');
  });
});

describe('stillIgnored', () => {
  const ignored = { path: '/w/GX010099.MP4', key: '300000:1000', at: T0 };
  it.each([
    ['the same size and time', '300000:1000', true],
    ['grown', '400000:2000', false],
    ['touched only', '300000:2000', false],
    ['unknown now', undefined, false],
  ])('%s', (_what, key, held) => {
    expect(stillIgnored(ignored, key)).toBe(held);
  });
  it('nothing ignored', () => expect(stillIgnored(undefined, '1:1')).toBe(false));
});

describe('folderSkipList', () => {
  const entry = (path: string, reason: SkipEntry['reason'], at: number, key = '10:1'): SkipEntry => ({
    path,
    reason,
    key,
    at,
  });

  it('lists what needs the editor first, newest first within a reason', () => {
    const list = folderSkipList(
      [
        entry('/w/copy/A.MOV', 'second-copy', T0 + 1),
        entry('/w/empty.wav', 'empty', T0 + 2),
        entry('/w/GX01.MP4', 'never-whole', T0 + 3),
        entry('/w/link.mp4', 'dangling-link', T0 + 4),
        entry('/w/GX02.MP4', 'never-whole', T0 + 5),
      ],
      [],
    );
    expect(list.map((s) => [s.path, s.reason])).toEqual([
      ['/w/GX02.MP4', 'never-whole'],
      ['/w/GX01.MP4', 'never-whole'],
      ['/w/empty.wav', 'empty'],
      ['/w/link.mp4', 'dangling-link'],
      ['/w/copy/A.MOV', 'second-copy'],
    ]);
  });

  it('an ignored file is listed as ignored while it is as it was, and as what it is once it changed', () => {
    const ignores = [{ path: '/w/GX01.MP4', key: '10:1', at: T0 + 10 }];
    expect(folderSkipList([entry('/w/GX01.MP4', 'never-whole', T0)], ignores)).toEqual([
      { path: '/w/GX01.MP4', reason: 'ignored', at: T0 + 10 },
    ]);
    expect(folderSkipList([entry('/w/GX01.MP4', 'never-whole', T0 + 20, '20:2')], ignores)).toEqual([
      { path: '/w/GX01.MP4', reason: 'never-whole', at: T0 + 20 },
    ]);
  });

  it('after a restart an ignore is listed before the file is told again', () => {
    expect(folderSkipList([], [{ path: '/w/GX01.MP4', key: '10:1', at: T0 }])).toEqual([
      { path: '/w/GX01.MP4', reason: 'ignored', at: T0 },
    ]);
  });
});

it(`noteSkip keeps the newest ${SKIPS_KEPT}, and a file told again moves to the newest`, () => {
  const m = new Map<string, SkipEntry>();
  for (let i = 0; i < SKIPS_KEPT + 5; i++) noteSkip(m, { path: `/w/${i}.wav`, reason: 'empty', at: T0 + i });
  expect(m.size).toBe(SKIPS_KEPT);
  expect(m.has('/w/4.wav')).toBe(false);
  expect(m.has('/w/5.wav')).toBe(true);
  noteSkip(m, { path: '/w/5.wav', reason: 'empty', at: T0 + 1000 });
  noteSkip(m, { path: '/w/new.wav', reason: 'empty', at: T0 + 1001 });
  expect(m.has('/w/5.wav')).toBe(true);
  expect(m.has('/w/6.wav')).toBe(false);
});

it('a delay under a minute is said in seconds, a longer one in minutes', () => {
  const reason = "it has no 'moov' box (written last, when the copy finishes)";
  expect(neverWholeWords('/w/GX01.MP4', reason, 6_000)).toMatch(/^unchanged for 6 s and not a complete MP4: no index/);
  expect(neverWholeWords('/w/GX01.MP4', reason, 181_000)).toMatch(/^unchanged for 3 min and not a complete MP4/);
  expect(neverWholeWords('/w/take.wav', 'its header declares 800 bytes and 400 are there', 240_000)).toBe(
    'unchanged for 4 min and not a complete WAV: cut short (its header declares 800 bytes and 400 are there); the copy or the recording may have stopped before the end. It is taken at once if it changes.',
  );
});
