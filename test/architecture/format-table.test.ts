// A format's facts live in one table (common/formats.ts): every list of formats in main, the
// contract and the renderer is read from it. This fails when a list of format ids is written out by
// hand anywhere else: three or more ids in a row, in an array, a union or a call's arguments.
// Single ids stay free (`format === 'docx'`), and so do the writers' maps keyed by id, which the
// compiler already holds to the table (RENDERERS is a Record over every format).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS, RESULT_FORMATS } from '../../common/formats.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TABLE = 'common/formats.ts';

/** Lists that share ids with the table but are not the result formats, each with why. */
const NOT_RESULT_FORMATS: Record<string, string> = {
  // The selects' string-out exports (OTIO, a script…): a list's rough cut, not a job's results.
  'common/string-out-formats.ts': 'STRING_OUT_FORMATS',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|svelte)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const id = `['"\`](?:${RESULT_FORMATS.join('|')})['"\`]`;
// Between two ids: a comma or a union's bar, with space, line breaks and comments around it.
const gap = String.raw`\s*(?:\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*[,|]\s*(?:\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*`;
const HAND_LIST = new RegExp(`${id}(?:${gap}${id}){2,}`, 'g');

/** Every hand-written list of three or more format ids, by file. */
export function handLists(text: string): string[] {
  return [...text.matchAll(HAND_LIST)].map((m) => m[0].replace(/\s+/g, ' '));
}

describe('the format table', () => {
  it('is the only list of formats in main, preload, the renderer and common/', () => {
    const found = ['main', 'preload', 'renderer/src', 'common']
      .flatMap((d) => sourceFiles(path.join(ROOT, d)))
      .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
      .filter((f) => f !== TABLE)
      .flatMap((f) => {
        const lists = handLists(readFileSync(path.join(ROOT, f), 'utf8'));
        const allowed = NOT_RESULT_FORMATS[f];
        return lists.length === 0 || (allowed && lists.length === 1) ? [] : [`${f}: ${lists.join(' ; ')}`];
      });
    expect(found).toEqual([]);
  });

  it('finds a list written by hand, in an array, a union or across lines with comments', () => {
    expect(handLists("const EDITOR = ['fcpxml', 'itt', 'edl'] as const;")).toHaveLength(1);
    expect(handLists("type F =\n  | 'srt'\n  // captions\n  | 'vtt'\n  | 'txt';")).toHaveLength(1);
    expect(handLists("formats.includes('srt') || formats.includes('vtt')")).toEqual([]);
    expect(handLists("['json', 'srt']")).toEqual([]);
  });

  it('holds each id once, each with an extension of its own', () => {
    expect(new Set(RESULT_FORMATS).size).toBe(FORMATS.length);
    expect(new Set(FORMATS.map((f) => f.extension)).size).toBe(FORMATS.length);
  });
});
