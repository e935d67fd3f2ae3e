// JSON Schema for the prompts' response formats (§11.2 `ask<N>Format`), in one place for both
// sides: the sandbox refuses a format as the service does, Sluice refuses the same before sending
// (engine/params.ts), and reads each answer against the format it sent. A format must meet the
// contract's rules (response-format.ts) and be a schema a validator compiles: a misspelt type or
// keyword is refused before any stream runs, not discovered in the answer.
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { responseFormatProblem } from './response-format.js';

// Made when a format is first checked: the validator is a noticeable part of a command's or the
// sandbox's start-up, and most jobs send none.
let ajv: Ajv | undefined;
function validator(): Ajv {
  if (ajv) return ajv;
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as { Ajv: typeof Ajv };
  // Unknown keywords are refused (a typo would otherwise be silently ignored); type inference is not.
  ajv = new AjvClass({
    strictSchema: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: true,
    logger: false,
  });
  return ajv;
}

const compiled = new Map<string, ValidateFunction | string>();

/** The validator of a format's text, or why it is refused. */
function compile(text: string): ValidateFunction | string {
  const known = compiled.get(text);
  if (known !== undefined) return known;
  let out: ValidateFunction | string;
  const rule = responseFormatProblem(text);
  if (rule) out = rule;
  else {
    try {
      out = validator().compile(JSON.parse(text) as object);
    } catch (e) {
      out = `is not a valid JSON Schema (${(e as Error).message})`;
    }
  }
  if (compiled.size > 64) compiled.clear();
  compiled.set(text, out);
  return out;
}

/** Why `text` is refused as `ask<N>Format`, or undefined. */
export function responseFormatRefusal(text: string): string | undefined {
  const c = compile(text);
  return typeof c === 'string' ? c : undefined;
}

/** One schema error in words: where in the answer, and what is wrong there. */
const described = (e: ErrorObject): string =>
  `${e.instancePath || '/'} ${e.message ?? 'is not allowed'}${
    e.keyword === 'additionalProperties'
      ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})`
      : ''
  }`;

export interface AnswerCheck {
  /** The schema errors, in words; empty when the answer matches its format. */
  errors: string[];
  /**
   * What of the answer may be used: the answer without the array items whose required fields do
   * not hold; undefined when the answer's own required fields do not hold (nothing is usable).
   * Other breaks (too many items, a property not asked for) are named in `errors` only.
   */
  usable: unknown;
}

/** Errors that mean a required field is missing or not of its type: the value cannot be read. */
const UNREADABLE = new Set(['required', 'type']);

/**
 * An answer read against the format it was asked in (`formatText`, as sent). A format that does not
 * compile checks nothing: the answer is taken as it is.
 */
export function checkAnswer(formatText: string, answer: unknown): AnswerCheck {
  const validate = compile(formatText);
  if (typeof validate === 'string' || validate(answer)) return { errors: [], usable: answer };
  const errors = validate.errors ?? [];
  const words = errors.map(described);
  // An unreadable array item is left out; an unreadable value outside any item costs the answer.
  const dropped = new Map<string, Set<number>>();
  for (const e of errors) {
    if (!UNREADABLE.has(e.keyword)) continue;
    const at = /^(.*)\/(\d+)(?:\/.*)?$/.exec(e.instancePath);
    if (!at || !Array.isArray(pointer(answer, at[1]!))) return { errors: words, usable: undefined };
    const set = dropped.get(at[1]!) ?? new Set<number>();
    set.add(Number(at[2]));
    dropped.set(at[1]!, set);
  }
  const usable = structuredClone(answer);
  // Deepest lists first, so an outer list's indices are not moved before its items are cut.
  for (const [path, items] of [...dropped].sort((a, b) => b[0].length - a[0].length)) {
    const list = pointer(usable, path) as unknown[];
    for (const i of [...items].sort((a, b) => b - a)) list.splice(i, 1);
  }
  return { errors: words, usable };
}

/** The value at a JSON Pointer (`/chapters/0`), or undefined. */
function pointer(value: unknown, path: string): unknown {
  let cur = value;
  for (const raw of path.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
