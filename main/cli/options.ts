// Argument parsers shared by the CLI commands.
import { InvalidArgumentError } from 'commander';
import { RESULT_FORMATS, type ResultFormat } from '../engine/settings.js';
import { isRateId, RATE_IDS, type RateId } from '../engine/timecode/rates.js';
import { parseTimecodeParts } from '../engine/timecode/timecode.js';

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
  const bad = list.filter((f) => !(RESULT_FORMATS as readonly string[]).includes(f));
  if (bad.length > 0 || list.length === 0) {
    throw new InvalidArgumentError(`must list formats among ${RESULT_FORMATS.join(', ')} (got ${value}).`);
  }
  return [...new Set(list)] as ResultFormat[];
}

/** `--timecode`: `source` (the media's own) or the timecode the timeline starts at. */
export function parseTimecodeStart(value: string): string {
  const v = value.trim().toLowerCase();
  if (v === 'source') return 'source';
  try {
    parseTimecodeParts(v);
  } catch {
    throw new InvalidArgumentError(`must be "source" or a timecode such as 01:00:00:00 (got ${value}).`);
  }
  return v;
}

/** `--frame-rate`: the rate for media without one of its own. */
export function parseFrameRate(value: string): RateId {
  const v = value
    .trim()
    .toLowerCase()
    .replace(/\s*df$/, 'df');
  if (!isRateId(v)) throw new InvalidArgumentError(`must be one of ${RATE_IDS.join(', ')} (got ${value}).`);
  return v;
}
