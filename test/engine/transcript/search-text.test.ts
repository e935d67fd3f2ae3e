// File names answer a search folded as transcript words are: case, accents, ß and the Unicode
// normalisation macOS gives names (decomposed) do not matter.
import { describe, expect, it } from 'vitest';
import { foldText, nameMatcher } from '../../../main/engine/transcript/search-text.js';

const NFD = 'Interview Jürgen Köln.mp4'.normalize('NFD');
const NAMES = [
  NFD,
  'Straßenumfrage Köln Ü-Wagen.mp4',
  'Entretien – Hélène Dubois (prise 2).mov',
  '会议记录 第二部分.mp4',
  'A001_C014_interview.mp4',
];
const found = (query: string): string[] => NAMES.filter(nameMatcher(query));

describe('file names in a search', () => {
  it('a decomposed (macOS) name is found by the name typed without accents, composed, or in capitals', () => {
    expect(NFD).not.toBe('Interview Jürgen Köln.mp4');
    for (const q of [
      'jurgen',
      'Jürgen'.normalize('NFC'),
      'Köln'.normalize('NFC'),
      'koln',
      'JÜRGEN KÖLN',
      'Interview J',
    ]) {
      expect(found(q), q).toContain(NFD);
    }
  });

  it('accents, ß and case fold as in transcripts', () => {
    expect(found('strasse')).toEqual(['Straßenumfrage Köln Ü-Wagen.mp4']);
    expect(found('koln')).toEqual([NFD, 'Straßenumfrage Köln Ü-Wagen.mp4']);
    expect(found('helene')).toEqual(['Entretien – Hélène Dubois (prise 2).mov']);
    expect(found('HÉLÈNE')).toEqual(['Entretien – Hélène Dubois (prise 2).mov']);
    expect(found('u-wagen')).toEqual(['Straßenumfrage Köln Ü-Wagen.mp4']);
  });

  it('words match in any order; CJK and punctuation-only queries still find their names', () => {
    expect(found('koln jurgen')).toEqual([NFD]);
    expect(found('第二部分')).toEqual(['会议记录 第二部分.mp4']);
    expect(found('–')).toEqual(['Entretien – Hélène Dubois (prise 2).mov']);
    expect(found('c014 INTERVIEW')).toEqual(['A001_C014_interview.mp4']);
    expect(found('zurich')).toEqual([]);
  });

  it('folding plain ASCII is only lower-casing, and other text is decomposed', () => {
    expect(foldText('A001_C014 Take-2 (final).MP4')).toBe('a001_c014 take-2 (final).mp4');
    expect(foldText('Straße Ångström')).toBe('strasse angstrom');
    expect(foldText(NFD)).toBe(foldText('Interview Jürgen Köln.mp4'));
  });
});
