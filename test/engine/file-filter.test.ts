import { describe, expect, it } from 'vitest';
import { createFileFilter } from '../../main/engine/file-filter.js';

const results = ['json', 'srt', 'vtt'];

describe('file filter', () => {
  const all = createFileFilter({ recursive: true, resultExtensions: results });
  it.each([
    ['talk.mp3', true],
    ['sub/dir/talk.mp4', true],
    ['sub\\win\\talk.wav', true],
    ['talk.mp3.part', false],
    ['talk.mp4.crdownload', false],
    ['upload.tmp', false],
    ['~$report.docx', false],
    ['.DS_Store', false],
    ['.hidden.mp3', false],
    ['.git/objects/talk.mp3', false],
    ['talk.json', false],
    ['talk.mp3.SRT', false],
    ['.talk.json.1a2b3c4d.sluice-tmp', false],
    ['talk.sluice-tmp', false],
    ['', false],
  ])('%s → %s', (p, want) => expect(all(p)).toBe(want));

  it.each([
    { opts: { include: ['*.mp3'] }, path: 'deep/a.mp3', want: true },
    { opts: { include: ['*.mp3'] }, path: 'a.wav', want: false },
    { opts: { include: ['*.MP3'], nocase: true }, path: 'a.mp3', want: true },
    { opts: { exclude: ['drafts/**'] }, path: 'drafts/a.mp3', want: false },
    { opts: { exclude: ['drafts/**'] }, path: 'final/a.mp3', want: true },
    { opts: { include: ['*.mp3'], exclude: ['*-draft.mp3'] }, path: 'x/a-draft.mp3', want: false },
    { opts: { recursive: false }, path: 'sub/a.mp3', want: false },
    { opts: { recursive: false }, path: 'a.mp3', want: true },
    { opts: { resultExtensions: [] }, path: 'a.json', want: true },
  ])('$opts : $path → $want', ({ opts, path, want }) => {
    const f = createFileFilter({ recursive: true, resultExtensions: results, ...opts });
    expect(f(path)).toBe(want);
  });
});
