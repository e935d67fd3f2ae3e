// How the sandbox checks a prompt's response format, as the service does: the contract's rules
// (service/response-format.ts), then the text must be a JSON Schema a validator can compile (a
// misspelt type or keyword is refused before any stream runs, not discovered in the answer).
import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';
import { responseFormatProblem } from '../service/response-format.js';

// Made when a prompt first carries a response format: the validator is a noticeable part of the
// sandbox's start-up, and most streams ask for none.
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
    logger: false,
  });
  return ajv;
}

/** Why `text` is refused as `ask<N>Format`, or undefined. */
export function responseFormatRefusal(text: string): string | undefined {
  const rule = responseFormatProblem(text);
  if (rule) return rule;
  try {
    validator().compile(JSON.parse(text) as object);
    return undefined;
  } catch (e) {
    return `is not a valid JSON Schema (${(e as Error).message})`;
  }
}
