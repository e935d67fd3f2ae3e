// The editor formats' own rules: Resolve's EDL limits (999 events a file, one marker a frame, ASCII),
// markers at their word's frame, links and languages.
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaptionWord } from '../../../../main/engine/captions/normalize.js';
import { editorDocument, languageTag } from '../../../../main/engine/captions/editors/document.js';
import { asciiText } from '../../../../main/engine/captions/editors/ascii.js';
import { EDL_MAX_EVENTS, edlFiles, edlMarkerName, renderEdl } from '../../../../main/engine/captions/editors/edl.js';
import { isRenderedFiles } from '../../../../main/engine/captions/render.js';
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
  it('turns on one frame each stay on it: Final Cut and Premiere keep several markers on a frame', () => {
    const doc = editorDocument({
      sourcePath: '/a.wav',
      transcript: transcript([word('Hi.', 0, 'A'), word('Yes.', 10, 'B'), word('So.', 20, 'A')]),
    });
    expect(doc.markers.map((m) => [m.frame, m.name])).toEqual([
      [0, 'A'],
      [0, 'B'],
      [0, 'A'],
    ]);
  });

  it('a chapter, a quote and a turn on one word: all three on that frame, chapter first', () => {
    const doc = editorDocument({
      sourcePath: '/a.wav',
      transcript: transcript([word('Hello', 0, 'A'), word('there.', 4000, 'A')]),
      markerSources: ['paragraphs', 'chapters', 'quotes'],
      chapters: [{ title: 'Intro', startMs: 4000 }],
      quotes: [{ text: 'there.', startMs: 4000, speaker: 'A' }],
    });
    expect(doc.markers.map((m) => [m.kind, m.frame])).toEqual([
      ['paragraph', 0],
      ['chapter', 100],
      ['quote', 100],
    ]);
  });

  it('a pull quote the recipe gave twice on the same words is one marker; the same words said later are another', () => {
    const doc = editorDocument({
      sourcePath: '/a.wav',
      transcript: transcript([word('Let', 1000, 'A'), word('me', 1200, 'A'), word('check.', 1400, 'A')]),
      markerSources: ['quotes'],
      quotes: [
        { text: '“Let me check.”', startMs: 1000, speaker: 'A' },
        { text: 'let  me CHECK.', startMs: 1010, speaker: 'A' },
        { text: 'Let me check.', startMs: 9000, speaker: 'A' },
      ],
    });
    expect(doc.markers.map((m) => [m.frame, m.name])).toEqual([
      [25, '“Let me check.”'],
      [225, '“Let me check.”'],
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
  const EVENT = /^(\d{3}) .* (\S+) (\S+) {2}\n \|C:(\S+) \|M:(.+) \|D:1$/gm;
  const pal = { num: 25, den: 1, dropFrame: false };

  it('past 999 markers, further files of 999: every marker once, in order, each file whole from event 001', () => {
    const words = Array.from({ length: 2100 }, (_, i) => word(`w${i}.`, i * 120, i % 2 ? '2 B' : 'A | x'));
    const doc = editorDocument({ sourcePath: '/a b.wav', transcript: transcript(words) });
    const files = renderEdl(doc);
    expect(files).toHaveLength(3);
    const events = files.map((f) => [...f.matchAll(EVENT)]);
    expect(events.map((e) => e.length)).toEqual([EDL_MAX_EVENTS, EDL_MAX_EVENTS, 2100 - 2 * EDL_MAX_EVENTS]);
    files.forEach((f, i) => {
      expect(f.split('\n').slice(0, 3)).toEqual([`TITLE: a b part ${i + 1} of 3`, 'FCM: NON-DROP FRAME', '']);
      expect(events[i]!.map((e) => Number(e[1]))).toEqual(events[i]!.map((_, n) => n + 1));
    });
    const frames = events.flat().map((e) => oracleFrames(e[2]!, pal));
    expect(frames).toEqual(doc.markers.map((m) => m.frame));
    expect(events[0]![0]![5]).toBe('A / x');
    expect(events[0]![1]![5]).toBe('Marker 2 B');
  });

  it('the writer gets the first file under the usual name, the others as markers-N, and a note naming them', () => {
    const words = Array.from({ length: 1000 }, (_, i) => word(`w${i}.`, i * 120, i % 2 ? 'B' : 'A'));
    const out = edlFiles(editorDocument({ sourcePath: '/a.wav', transcript: transcript(words) }));
    if (!isRenderedFiles(out)) throw new Error('expected two files');
    expect(out.parts.map((p) => p.suffix)).toEqual([undefined, 'markers-2']);
    expect(out.note(['a.edl', 'a.markers-2.edl'])).toMatch(
      /^1000 markers .* 999 at most.* in 2 files, each on the same timeline start: a\.edl, a\.markers-2\.edl\. Import each/,
    );
    const few = edlFiles(editorDocument({ sourcePath: '/a.wav', transcript: transcript(words.slice(0, 999)) }));
    expect(typeof few).toBe('string');
  });

  it('markers on one frame are one event (Resolve drops the others), named after each, in the first one’s colour', () => {
    const doc = editorDocument({
      sourcePath: '/a.wav',
      transcript: transcript([word('Hi.', 0, 'A'), word('Yes.', 10, 'B'), word('So.', 20, 'A'), word('On.', 80, 'B')]),
      markerSources: ['paragraphs', 'chapters'],
      chapters: [{ title: 'Intro', startMs: 0 }],
    });
    const events = [...renderEdl(doc)[0]!.matchAll(EVENT)];
    expect(events.map((e) => [oracleFrames(e[2]!, pal), e[4], e[5]])).toEqual([
      [0, 'ResolveColorRed', 'Intro / A / B'],
      [2, 'ResolveColorGreen', 'B'],
    ]);
  });

  it('names and the title in printable ASCII: accents folded, quotes straightened, emoji dropped', () => {
    expect(edlMarkerName('Jürgen Müller & <Zoë> "QA" 🎬')).toBe('Jurgen Muller & <Zoe> "QA"');
    expect(edlMarkerName('“Let me check the calendar…”')).toBe('"Let me check the calendar..."');
    expect(edlMarkerName('12 o’clock | Ana‑María – Straße 👩🏽‍💻🇫🇷')).toBe("Marker 12 o'clock / Ana-Maria - Strasse");
    expect(edlMarkerName('東京')).toBe('__');
    expect(edlMarkerName('🎬')).toBe('Marker');
    const doc = editorDocument({ sourcePath: '/m/Interview Zoë 23.976.mov', transcript: transcript([word('a', 0)]) });
    expect(renderEdl(doc)[0]!.split('\n')[0]).toBe('TITLE: Interview Zoe 23.976');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        expect(asciiText(s)).toMatch(/^[\x20-\x7e]*$/);
        const name = edlMarkerName(s);
        expect(name).toMatch(/^[\x20-\x7e]+$/);
        expect(name).not.toMatch(/^\d|\|/);
      }),
      { numRuns: 300 },
    );
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
