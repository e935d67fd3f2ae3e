import { describe, expect, it } from 'vitest';
import { createFileFilter } from '../../main/engine/file-filter.js';
import { DEFAULT_MEDIA_GLOBS } from '../../main/engine/media-types.js';

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
    { opts: { include: ['*.MP3'] }, path: 'a.mp3', want: true },
    { opts: { include: ['*.mp4'] }, path: 'DCIM/100GOPRO/GX010234.MP4', want: true },
    { opts: { include: ['clips/*.mov'] }, path: 'CLIPS/A001_C003_0412.MOV', want: true },
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

  // What cameras and recorders write, in the folder layouts of their cards, on every OS.
  const media = createFileFilter({ include: DEFAULT_MEDIA_GLOBS, recursive: true, resultExtensions: results });
  it.each([
    ['DCIM/100GOPRO/GX010234.MP4', true],
    ['DCIM/100MEDIA/DJI_0042.MP4', true],
    ['PRIVATE/M4ROOT/CLIP/C0001.MP4', true],
    ['CLIPS001/A001_C003_0412.MOV', true],
    ['ZOOM0001/ZOOM0001_LR.WAV', true],
    ['CONTENTS/CLIP/XD0001.MXF', true],
    ['AVCHD/BDMV/STREAM/00000.MTS', true],
    ['PRIVATE/M4ROOT/CLIP/C0001M01.XML', false],
    ['DCIM/100GOPRO/GX010234.THM', false],
    ['GX010234.MP4.SRT', false],
  ])('default media: %s → %s', (p, want) => expect(media(p)).toBe(want));
});
