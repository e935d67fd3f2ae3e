// The editor formats' own rules: Resolve's EDL limits, one marker per frame, links and languages.
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaptionWord } from '../../../../main/engine/captions/normalize.js';
import { editorDocument, languageTag } from '../../../../main/engine/captions/editors/document.js';
import { EDL_MAX_EVENTS, edlMarkerName, renderEdl } from '../../../../main/engine/captions/editors/edl.js';
import { fileUrl } from '../../../../main/engine/captions/editors/file-url.js';
import { oracleFrames } from './scenarios.js';

const transcript = (words: CaptionWord[]) => ({ words, speakers: [], timeUnit: 'ms' as const, text: '' });
const word = (text: string, startMs: number, speaker?: string): CaptionWord => ({
  text,
  startMs,
  endMs: startMs + 5,
  spaceBefore: true,
  ...(speaker ? { speaker } : {}),
});

describe('markers', () => {
  it('two turns on one frame: the second moves to the next frame', () => {
    const doc = editorDocument({
      sourcePath: '/a.wav',
      transcript: transcript([word('Hi.', 0, 'A'), word('Yes.', 10, 'B'), word('So.', 20, 'A')]),
    });
    expect(doc.markers.map((m) => [m.frame, m.name])).toEqual([
      [0, 'A'],
      [1, 'B'],
      [2, 'A'],
    ]);
  });

  it('without speakers, one marker per paragraph (a pause of two seconds)', () => {
    const doc = editorDocument({
      sourcePath: '/a.wav',
      transcript: transcript([word('One', 0), word('two.', 500), word('Three.', 4000)]),
    });
    expect(doc.markers.map((m) => [m.name, m.note])).toEqual([
      ['Paragraph 1', 'One two.'],
      ['Paragraph 2', 'Three.'],
    ]);
  });

  it('a long turn gives a note of its first words', () => {
    const long = Array.from({ length: 40 }, (_, i) => word(`word${i}`, i * 100, 'A'));
    const note = editorDocument({ sourcePath: '/a.wav', transcript: transcript(long) }).markers[0]!.note;
    expect(note.endsWith('…')).toBe(true);
    expect(Array.from(note).length).toBeLessThanOrEqual(81);
  });
});

describe('EDL for Resolve', () => {
  it('stops at 999 events, each on its own frame, names never starting with a digit', () => {
    const words = Array.from({ length: 1200 }, (_, i) => word(`w${i}.`, i * 120, i % 2 ? '2 B' : 'A | x'));
    const text = renderEdl(editorDocument({ sourcePath: '/a.wav', transcript: transcript(words) }));
    const events = [...text.matchAll(/^(\d{3}) .* (\S+) (\S+) {2}\n \|C:\S+ \|M:(.+) \|D:1$/gm)];
    expect(events).toHaveLength(EDL_MAX_EVENTS);
    const frames = events.map((e) => oracleFrames(e[2]!, { num: 25, den: 1, dropFrame: false }));
    expect(new Set(frames).size).toBe(frames.length);
    expect(events[0]![4]).toBe('A / x');
    expect(events[1]![4]).toBe('Marker 2 B');
  });

  it('names are one line', () => {
    expect(edlMarkerName('a\nb')).toBe('a b');
    expect(edlMarkerName('  ')).toBe('Marker');
  });
});

describe('links and languages', () => {
  it('file URLs for POSIX, Windows and UNC paths, percent-encoded', () => {
    expect(fileUrl('/Volumes/NAS/Día 1 #2.mov')).toBe('file:///Volumes/NAS/D%C3%ADa%201%20%232.mov');
    expect(fileUrl('C:\\Media\\a b.mov')).toBe('file:///C:/Media/a%20b.mov');
    expect(fileUrl('\\\\nas\\share\\clip.mxf')).toBe('file://nas/share/clip.mxf');
    expect(fileUrl('https://example.org/a%20b.mp4')).toBe('https://example.org/a%20b.mp4');
  });

  // A name is linked as the file system spells it: a macOS (NFD) name keeps its combining marks, so
  // the URL names the very bytes on the disk or share, whatever the NLE's lookup folds.
  it('read back by Node’s own file URL parser, any name is the path it came from, NFD kept NFD', () => {
    const segment = fc
      .tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }), fc.boolean())
      .map(([s, nfd]) => (nfd ? s.normalize('NFD') : s))
      .filter((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (parts) => {
        expect(fileURLToPath(fileUrl(`/${parts.join('/')}`))).toBe(`/${parts.join('/')}`);
        const windows = `D:\\${parts.join('\\')}`;
        expect(fileURLToPath(fileUrl(windows), { windows: true })).toBe(windows);
      }),
      { numRuns: 500 },
    );
    const nfd = '/Volumes/NAS/Jürgen Köln 100%.mov'.normalize('NFD');
    expect(fileUrl(nfd)).toBe('file:///Volumes/NAS/Ju%CC%88rgen%20Ko%CC%88ln%20100%25.mov');
    expect(fileURLToPath(fileUrl(nfd))).toBe(nfd);
  });

  it('language tags as NLEs want them', () => {
    expect(languageTag([undefined, 'pt_br'])).toBe('pt-BR');
    expect(languageTag(['not a tag', 'EN'])).toBe('en');
    expect(languageTag([])).toBe('und');
  });
});
