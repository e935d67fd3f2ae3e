// The content decision (rename, same file again, a copy) and where a renamed clip's results go.
import { describe, expect, it } from 'vitest';
import {
  classifyByContent,
  followedResultName,
  sameContent,
  type ContentTwin,
} from '../../main/engine/file-identity.js';

const id = (path: string, contentHash?: string) => ({
  path,
  size: 10,
  mtimeMs: 1,
  ...(contentHash ? { contentHash } : {}),
});
/** A job taken at `path`, its file now at `now` (after a rename) or still there. */
const twin = (path: string, state: ContentTwin['state'], stillThere: boolean, now = path): ContentTwin => ({
  jobId: 'j',
  source: id(path, 'fp1:aa'),
  path: now,
  state,
  stillThere,
});

describe('classifyByContent', () => {
  it.each([
    [
      'renamed: finished, old name gone',
      id('/c/C0002_M.MP4', 'fp1:aa'),
      twin('/c/C0002.MP4', 'completed', false),
      'renamed',
    ],
    [
      'same file again, same name, first still there',
      id('/b/zoom.wav', 'fp1:aa'),
      twin('/a/zoom.wav', 'completed', true),
      'same-job',
    ],
    ['same file again while queued', id('/b/zoom.wav', 'fp1:aa'), twin('/a/zoom.wav', 'active', true), 'same-job'],
    [
      'a copy under another name beside the first',
      id('/a/copy.wav', 'fp1:aa'),
      twin('/a/zoom.wav', 'completed', true),
      'none',
    ],
    ['a failed job’s bytes under a new name', id('/a/new.wav', 'fp1:aa'), twin('/a/zoom.wav', 'ended', false), 'none'],
    ['other bytes', id('/a/x.wav', 'fp1:bb'), twin('/a/zoom.wav', 'completed', false), 'none'],
    ['no hash', id('/a/x.wav'), twin('/a/zoom.wav', 'completed', false), 'none'],
    [
      'a renamed clip found again at its new name (a restart, a rescan)',
      id('/c/DJI_0001_Bruecke.MP4', 'fp1:aa'),
      twin('/c/DJI_0001.MP4', 'completed', true, '/c/DJI_0001_Bruecke.MP4'),
      'same-job',
    ],
    [
      'a renamed clip copied to a second card folder under its new name',
      id('/backup/DJI_0001_Bruecke.MP4', 'fp1:aa'),
      twin('/c/DJI_0001.MP4', 'completed', true, '/c/DJI_0001_Bruecke.MP4'),
      'same-job',
    ],
    [
      'a copy of a renamed clip under its old name, beside it: made on purpose',
      id('/c/DJI_0001.MP4', 'fp1:aa'),
      twin('/c/DJI_0001.MP4', 'completed', true, '/c/DJI_0001_Bruecke.MP4'),
      'none',
    ],
    [
      'renamed twice: the second name gone, found under a third',
      id('/c/DJI_0001_final.MP4', 'fp1:aa'),
      twin('/c/DJI_0001.MP4', 'completed', false, '/c/DJI_0001_Bruecke.MP4'),
      'renamed',
    ],
  ])('%s', (_, detected, t, kind) => {
    expect(classifyByContent(detected, t).kind).toBe(kind);
  });
  it('compares names as the file system shows them (NFC and NFD alike)', () => {
    const nfd = id('/b/Jürgen.mp4'.normalize('NFD'), 'fp1:aa');
    expect(classifyByContent(nfd, twin('/a/Jürgen.mp4', 'completed', true)).kind).toBe('same-job');
  });
});

describe('sameContent', () => {
  it('a fingerprint never decides against a full hash: size and time do', () => {
    expect(sameContent({ ...id('/a'), contentHash: 'fp1:aa' }, { ...id('/a'), contentHash: 'bb' })).toBe(true);
    expect(sameContent({ ...id('/a'), contentHash: 'fp1:aa' }, { ...id('/a'), contentHash: 'fp1:bb' })).toBe(false);
  });
});

describe('followedResultName', () => {
  it.each([
    ['C0002.MP4', 'C0002_Mueller.MP4', 'C0002.srt', 'C0002_Mueller.srt'],
    ['C0002.MP4', 'C0002_Mueller.MP4', 'C0002.MP4.srt', 'C0002_Mueller.MP4.srt'],
    ['C0002.MP4', 'Interview.mov', 'C0002.en.vtt', 'Interview.en.vtt'],
    ['C0002.MP4', 'X.MP4', 'C0002_transcript.txt', 'X_transcript.txt'],
    ['C0002.MP4', 'X.MP4', 'C00021.srt', null],
    ['C0002.MP4', 'X.MP4', 'Transcripts-C0002.json', null],
  ])('%s → %s: %s becomes %s', (from, to, result, expected) => {
    expect(followedResultName(from, to, result)).toBe(expected);
  });
});
