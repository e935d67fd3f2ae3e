// The rules both processes use, each from its one home in common/.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_ID, isRateId, RATE_IDS, rateName } from '../../common/frame-rates.js';
import { foldText } from '../../common/text-fold.js';
import {
  CAPTION_PRESET_IDS,
  captionLayoutName,
  captionPresetLabel,
  captionPresetName,
} from '../../common/caption-presets.js';
import { RECIPE_CHOICE_ROWS, recipeLabel } from '../../common/recipe-choices.js';
import { ineligible, isMediaName, MEDIA_ACCEPT, mediaExtensionOf } from '../../common/media-files.js';
import { RECIPES } from '../../main/engine/recipes/recipes.js';
import { CAPTION_PRESETS as ENGINE_PRESETS, DEFAULT_CAPTIONS } from '../../main/engine/captions/presets.js';

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

describe('caption presets', () => {
  it('label each preset from its own numbers', () => {
    expect(CAPTION_PRESET_IDS.map(captionPresetLabel)).toEqual([
      'Streaming (2 lines × 42, 1–7 s)',
      'Broadcast (2 lines × 37, 1–7 s)',
      'Vertical video (1 line × 32, 0.8–4 s, no speaker names)',
      'Custom',
    ]);
    expect(captionPresetName('vertical')).toBe('Vertical video');
    expect(captionLayoutName('vertical')).toBe('Vertical captions (no names)');
    expect(captionLayoutName('broadcast')).toBe('Broadcast captions');
  });

  it('are the very table the engine lays captions out by', () => {
    expect(ENGINE_PRESETS.streaming).toBe(DEFAULT_CAPTIONS);
    expect(ENGINE_PRESETS.vertical.charsPerLine).toBe(32);
  });
});

describe('recipe choices', () => {
  it('are the rows the engine’s recipes are built on', () => {
    for (const [id, row] of Object.entries(RECIPE_CHOICE_ROWS)) {
      expect(RECIPES[id as keyof typeof RECIPES]).toMatchObject(row);
    }
    expect(recipeLabel('interview')).toBe('Interview / rushes');
    expect(recipeLabel('custom-x')).toBe('custom-x');
  });
});

describe('which files may become a job', () => {
  it('knows media by its extension, letter case ignored, in a path of either kind', () => {
    expect(isMediaName('/cards/A001/GX010234.MP4')).toBe(true);
    expect(isMediaName('C:\\rushes\\take 2.mxf')).toBe(true);
    expect(isMediaName('notes.pdf')).toBe(false);
    expect(mediaExtensionOf('/a.b/README')).toBe('');
    expect(mediaExtensionOf('.wav')).toBe('');
  });

  it('refuses a file not named as media, then an empty one; without a name, by size alone', () => {
    expect(ineligible({ name: 'brief.pdf', size: 10 })).toEqual({ kind: 'not-media', ext: 'pdf' });
    expect(ineligible({ name: 'README', size: 10 })).toEqual({ kind: 'not-media', ext: '' });
    expect(ineligible({ name: 'take.wav', size: 0 })).toEqual({ kind: 'empty' });
    expect(ineligible({ name: 'take.wav', size: 1 })).toBeUndefined();
    expect(ineligible({ size: 0 })).toEqual({ kind: 'empty' });
    expect(ineligible({ size: 5 })).toBeUndefined();
  });

  it('offers the picker the same extensions, MXF included', () => {
    expect(MEDIA_ACCEPT.split(',')).toContain('.mxf');
    expect(MEDIA_ACCEPT.split(',').every((e) => isMediaName(`x${e}`))).toBe(true);
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
