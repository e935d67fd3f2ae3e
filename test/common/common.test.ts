// The rules both processes use, each from its one home in common/.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_ID, isRateId, RATE_IDS, rateName } from '../../common/frame-rates.js';
import { foldText } from '../../common/text-fold.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('foldText', () => {
  it('folds case, accents and ß, composed or decomposed', () => {
    expect(foldText('Straße Ångström')).toBe('strasse angstrom');
    expect(foldText('Interview Jürgen Köln.mp4'.normalize('NFD'))).toBe('interview jurgen koln.mp4');
    expect(foldText('A001_C014 Take-2 (final).MP4')).toBe('a001_c014 take-2 (final).mp4');
  });

  it('folds full-width, decomposed, Turkish and German letters as it does today', () => {
    expect(foldText('ＡＢＣ ｄｅｆ')).toBe('abc def');
    expect(foldText('Cafe\u0301')).toBe('cafe');
    expect(foldText('Café')).toBe(foldText('Cafe\u0301'));
    // Turkish: dotted İ is i with its dot dropped; dotless ı stays its own letter (no locale rules).
    expect(foldText('İSTANBUL')).toBe('istanbul');
    expect(foldText('ıi')).toBe('ıi');
    expect(foldText('STRASSE')).toBe(foldText('Straße'));
    expect(foldText('GROẞ')).toBe('gross');
  });

  it('folds compatibility forms that decompose to capitals (they used to keep their case)', () => {
    expect(foldText('ℍotel™')).toBe('hoteltm');
    expect(foldText('𝐀𝐁𝐂')).toBe('abc');
    expect(foldText('㎒')).toBe('mhz');
  });

  it('is settled: folding a folded text changes nothing', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => foldText(foldText(s)) === foldText(s)));
    expect(foldText(foldText('ᴬℌ'))).toBe(foldText('ᴬℌ'));
  });

  it('gives one answer for a text and its decomposed form', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => foldText(s.normalize('NFD')) === foldText(s)));
  });
});

describe('frame rates', () => {
  it('names each rate as an NLE does, and knows its own ids', () => {
    expect(RATE_IDS.map(rateName)).toContain('29.97 drop-frame');
    expect(rateName('25')).toBe('25 fps');
    expect(isRateId(DEFAULT_RATE_ID)).toBe(true);
    expect(isRateId('12')).toBe(false);
  });
});

describe('common/', () => {
  it('is pure: no node:*, no package, nothing of main, preload or the renderer', () => {
    const dir = path.join(ROOT, 'common');
    const imports = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        [
          ...readFileSync(path.join(dir, f), 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm),
        ].map((m) => `${f}: ${m[1]}`),
      );
    expect(imports.filter((i) => !/: \.\/[\w-]+\.js$/.test(i))).toEqual([]);
  });
});
