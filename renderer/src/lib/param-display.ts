// A job's parameters as a person reads them in a job's details: a value that is a JSON document
// (a recipe's answer format, `ask<N>Format`) is shown indented behind a disclosure instead of as
// one long line; lists are joined; everything else is shown as sent.
import type { Params } from '../../../preload/contract.js';

export interface ParamLine {
  name: string;
  /** The value as one line of text (lists joined with commas). */
  text: string;
  /** Set when the value is a JSON object or array: the same, indented two spaces per level. */
  json?: string;
  /** A short description of the JSON value for the disclosure's summary ("JSON Schema, 3 fields"). */
  jsonLabel?: string;
}

function parseJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

function label(v: unknown): string {
  if (Array.isArray(v)) return `JSON list, ${v.length} ${v.length === 1 ? 'entry' : 'entries'}`;
  const o = v as Record<string, unknown>;
  const props = o.properties && typeof o.properties === 'object' ? Object.keys(o.properties).length : undefined;
  if (typeof o.type === 'string' && props !== undefined) {
    return `JSON Schema, ${props} ${props === 1 ? 'field' : 'fields'}`;
  }
  const keys = Object.keys(o).length;
  return `JSON, ${keys} ${keys === 1 ? 'key' : 'keys'}`;
}

export function paramLines(params: Params): ParamLine[] {
  return Object.entries(params).map(([name, value]) => {
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    const parsed = typeof value === 'string' ? parseJson(value) : undefined;
    if (parsed === undefined || parsed === null || typeof parsed !== 'object') return { name, text };
    return { name, text, json: JSON.stringify(parsed, null, 2), jsonLabel: label(parsed) };
  });
}
