// Rules with one home each (issue 44): the caption presets and their labels, the recipe choices,
// History's filter, whether a file may become a job, the contract's services. Each test greps main, preload, the renderer
// and common/ for the shapes the old copies had, and fails when one comes back outside its home.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAPTION_FIELDS } from '../../common/caption-presets.js';
import { RECIPE_CHOICE_ROWS } from '../../common/recipe-choices.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|svelte)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const FILES = ['main', 'preload', 'renderer/src', 'common']
  .flatMap((d) => sourceFiles(path.join(ROOT, d)))
  .map((f) => ({ file: path.relative(ROOT, f).split(path.sep).join('/'), text: readFileSync(f, 'utf8') }));

/** Files other than `home` where `pattern` is found, with what it found. */
function copiesOf(pattern: RegExp, home: string | readonly string[]): string[] {
  const homes = typeof home === 'string' ? [home] : home;
  return FILES.filter((f) => !homes.includes(f.file)).flatMap((f) =>
    [
      ...f.text.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`)),
    ].map((m) => `${f.file}: ${m[0].replace(/\s+/g, ' ')}`),
  );
}

const q = `['"\`]`;

describe('one home per rule', () => {
  it('caption presets: their numbers and labels only in common/caption-presets.ts', () => {
    const home = 'common/caption-presets.ts';
    // A label stating a preset's numbers ("2 lines × 42"), a list of preset ids, a preset's numbers as a row.
    expect(copiesOf(/\d+ lines? × \d+/, home)).toEqual([]);
    expect(
      copiesOf(
        new RegExp(`${q}(?:streaming|broadcast|vertical)${q}\\s*[,|]\\s*${q}(?:streaming|broadcast|vertical)${q}`),
        home,
      ),
    ).toEqual([]);
    expect(copiesOf(/charsPerLine:\s*\d+,\s*lines:\s*\d+/, home)).toEqual([]);
    // Which preset drops speaker names is the table's: no `!== 'vertical'` beside speakerLabels.
    expect(copiesOf(/speakerLabels:\s*\w+\s*!==\s*'vertical'/, home)).toEqual([]);
    // The setting's fields (a view restating them), the Custom numbers' names and ranges.
    expect(copiesOf(/charsPerLine\??:\s*number/, home)).toEqual([]);
    for (const { label } of Object.values(CAPTION_FIELDS)) {
      expect(copiesOf(new RegExp(`['\`]${label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['\`]`), home)).toEqual([]);
    }
    expect(copiesOf(/\.min\(10\)\.max\(100\)|\.min\(1\)\.max\(4\)/, home)).toEqual([]);
  });

  it('recipe choices: the built-ins’ ids, names and descriptions only in common/recipe-choices.ts', () => {
    const home = 'common/recipe-choices.ts';
    for (const row of Object.values(RECIPE_CHOICE_ROWS)) {
      for (const words of [row.label, row.description]) {
        // As code writes a string (prettier's single quotes, or a template); a doc comment may quote one.
        expect(copiesOf(new RegExp(`['\`]${words.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['\`]`), home)).toEqual([]);
      }
    }
    expect(copiesOf(new RegExp(`${q}podcast${q}\\s*[,|]\\s*${q}interview${q}`), home)).toEqual([]);
  });

  it('History’s filter: the index query and the row test only in main/engine/history-filter.ts', () => {
    const home = 'main/engine/history-filter.ts';
    // Building the index's search, or testing a row's name, states and computers, by hand.
    expect(copiesOf(/indexSearch\(|search:\s*\{\s*terms:/, home)).toEqual([]);
    expect(copiesOf(/nameMatcher\(/, [home, 'main/engine/transcript/search-text.ts'])).toEqual([]);
    expect(copiesOf(/computers\.has\(computerKey|computerKey\(c\)\s*===/, home)).toEqual([]);
  });

  it('whether a file may become a job: the media extensions and the empty-file rule only in common/media-files.ts', () => {
    const home = 'common/media-files.ts';
    expect(
      copiesOf(new RegExp(`${q}(?:wav|mp3|m4a|aac|flac)${q}\\s*,\\s*${q}(?:mp3|m4a|aac|flac|ogg)${q}`), home),
    ).toEqual([]);
    expect(copiesOf(/new Set<string>\(MEDIA_EXTENSIONS\)|accept="audio\/\*/, home)).toEqual([]);
    // A file's size checked against 0 to refuse it (counts of things are free: `.size === 0` on a Set is no file).
    expect(copiesOf(/\b(?:st|s|f)\.size === 0\b/, home)).toEqual([]);
  });

  it('the NTSC decision (a rate’s 1000/1001) only in common/timecode.ts', () => {
    const home = 'common/timecode.ts';
    // A rate tested or built on 1001 by hand: `den === 1001`, `den: 1001`, `(n * 1000) / 1001`.
    expect(copiesOf(/\bden\s*(?:[!=]==?|:)\s*1001\b|\)\s*\/\s*1001\b|\*\s*1001\b/, home)).toEqual([]);
  });

  it('job states, finished and in progress: only in common/job-states.ts', () => {
    const home = 'common/job-states.ts';
    // The list of states, the finished ones, or the ones in progress, written out again.
    expect(
      copiesOf(new RegExp(`${q}completed${q},\\s*${q}failed${q},\\s*${q}canceled${q},\\s*${q}expired${q}`), home),
    ).toEqual([]);
    expect(copiesOf(new RegExp(`${q}uploading${q},\\s*${q}processing${q},\\s*${q}exporting${q}`), home)).toEqual([]);
    expect(copiesOf(/\|\s*'uploading'\s*\|\s*'processing'\s*\|/, home)).toEqual([]);
  });

  it('how long typed text may be: markers, chapters, quotes and selects only in common/edit-limits.ts', () => {
    const home = 'common/edit-limits.ts';
    expect(copiesOf(/(?:MARKER|OUTLINE|SELECT)_LIMITS\s*=\s*\{/, home)).toEqual([]);
    // A field's length typed as a number, not read from a table of limits.
    expect(copiesOf(/maxlength="\d+"/, home)).toEqual([]);
  });

  it('the services of the contract: named only in common/service-names.ts', () => {
    const home = 'common/service-names.ts';
    // The names as a union or a list, or a per-service field written out for each.
    const union = /'gateway'\s*\|\s*'stream'/;
    const list = new RegExp(`${q}gateway${q},\\s*${q}stream${q}`);
    const fields = /gateway:\s*\w+\.optional\(\),\s*stream:/;
    expect(copiesOf(union, home)).toEqual([]);
    expect(copiesOf(list, home)).toEqual([]);
    expect(copiesOf(fields, home)).toEqual([]);
    expect(copiesOf(/'Gateway \(uploads\)'/, home)).toEqual([]);
    expect(fields.test('urls: z.strictObject({ gateway: url.optional(), stream: url.optional(),')).toBe(true);
    expect(union.test("export type ServiceName = 'gateway' | 'stream' | 'export';")).toBe(true);
  });

  it('finds the copies it guards against', () => {
    const hit = (text: string, re: RegExp): boolean => re.test(text);
    expect(hit("{ id: 'broadcast', label: 'Broadcast (2 lines × 37)' }", /\d+ lines? × \d+/)).toBe(true);
    expect(hit('if (st.size === 0) return', /\b(?:st|s|f)\.size === 0\b/)).toBe(true);
    expect(hit('if (pending.size === 0) return', /\b(?:st|s|f)\.size === 0\b/)).toBe(false);
    const ntsc = /\bden\s*(?:[!=]==?|:)\s*1001\b|\)\s*\/\s*1001\b|\*\s*1001\b/;
    expect(hit("rate.ele('ntsc').txt(r.den === 1001 ? 'TRUE' : 'FALSE')", ntsc)).toBe(true);
    expect(hit('{ num: tcFps * 1000, den: 1001, dropFrame: false }', ntsc)).toBe(true);
    expect(hit('Math.abs(decimal - (n * 1000) / 1001) < 0.005', ntsc)).toBe(true);
    expect(hit('// a frame at 23.976 lasts 1001/24 ms', ntsc)).toBe(false);
  });
});
