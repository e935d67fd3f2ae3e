// How the sandbox checks a prompt's response format, as the service does: the contract's rules
// (service/response-format.ts), then the text must be a JSON Schema a validator can compile (a
// misspelt type or keyword is refused before any stream runs, not discovered in the answer).
import { Ajv } from 'ajv';
import { responseFormatProblem } from '../service/response-format.js';

// Unknown keywords are refused (a typo would otherwise be silently ignored); type inference is not.
const ajv = new Ajv({
  strictSchema: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  logger: false,
});

/** Why `text` is refused as `ask<N>Format`, or undefined. */
export function responseFormatRefusal(text: string): string | undefined {
  const rule = responseFormatProblem(text);
  if (rule) return rule;
  try {
    ajv.compile(JSON.parse(text) as object);
    return undefined;
  } catch (e) {
    return `is not a valid JSON Schema (${(e as Error).message})`;
  }
}
