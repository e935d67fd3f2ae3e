// Argument parsers shared by the CLI commands.
import { InvalidArgumentError } from 'commander';
import { readFileSync } from 'node:fs';
import { glossaryProblems, parseGlossary } from '../engine/recipes/glossary.js';
import { printable } from './printable.js';
import { isResultFormat, RESULT_FORMATS, type ResultFormat } from '../../common/formats.js';
import { isRateId, RATE_IDS, type RateId } from '../engine/timecode/rates.js';
import { timecodeTextProblem } from '../../common/timecode.js';

export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number (0–65535).');
  return n;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number ≥ 1.');
  return n;
}

export function parseFormats(value: string): ResultFormat[] {
  const list = value
    .split(',')
    .map((f) => f.trim().toLowerCase())
    .filter(Boolean);
  if (!list.every(isResultFormat) || list.length === 0) {
    throw new InvalidArgumentError(`must list formats among ${RESULT_FORMATS.join(', ')} (got ${printable(value)}).`);
  }
  return [...new Set(list)];
}

/**
 * `--recipe`: a recipe's id or a custom recipe's name, or `none` to send no recipe even when
 * Settings has a default. Which names exist is known only with the settings (templateAndParams).
 */
export function parseRecipe(value: string): string {
  const v = value.trim();
  if (v === '' || v.length > 100)
    throw new InvalidArgumentError(`must name a recipe, or none (got ${printable(value)}).`);
  return v.toLowerCase() === 'none' ? 'none' : v;
}

/** `--glossary FILE`: a text or CSV file of names and terms, one per line (its first column). */
export function parseGlossaryFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new InvalidArgumentError(
      `cannot read ${printable(file)} (${code}): give a text or CSV file, one term per line.`,
    );
  }
  const terms = parseGlossary(text);
  const problems = glossaryProblems(terms);
  if (terms.length === 0)
    throw new InvalidArgumentError(`${printable(file)} holds no terms: write one name or term per line.`);
  if (problems.length > 0) throw new InvalidArgumentError(problems.join(' '));
  return terms;
}

/** `--timecode`: `source` (the media's own) or the timecode the timeline starts at. */
export function parseTimecodeStart(value: string): string {
  const v = value.trim().toLowerCase();
  if (v === 'source') return 'source';
  const problem = timecodeTextProblem(v);
  if (problem === null) return v;
  // A label of the right shape whose numbers no clock shows (99:99:99:99): say which number.
  const shaped = /^\d{2}:\d{2}:\d{2}[:;.,]\d{2,3}$/.test(v);
  throw new InvalidArgumentError(
    `must be "source" or a timecode such as 01:00:00:00 (got ${printable(value)}${shaped ? `: ${problem}` : ''}).`,
  );
}

/** `--frame-rate`: the rate for media without one of its own. */
export function parseFrameRate(value: string): RateId {
  const v = value
    .trim()
    .toLowerCase()
    .replace(/\s*df$/, 'df');
  if (!isRateId(v)) throw new InvalidArgumentError(`must be one of ${RATE_IDS.join(', ')} (got ${printable(value)}).`);
  return v;
}
