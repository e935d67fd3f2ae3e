// Template parameters on Sluice's side: checked when a job or watch folder is set up (a typo is a
// 400 from the gateway, §4.3, so it is caught before any upload), and filtered before upload so
// only parameters the template accepts are ever sent.
import { findParam, findTemplate, LANGUAGES, type ParamSpec, type TemplateSpec } from '../service/templates.js';
import type { ParamValue, Params } from './settings.js';

function checkScalar(spec: ParamSpec, raw: string | number | boolean): string | undefined {
  const text = String(raw);
  switch (spec.type) {
    case 'boolean':
      return typeof raw === 'boolean' || text === 'true' || text === 'false' ? undefined : 'must be true or false';
    case 'number':
    case 'integer': {
      const n = typeof raw === 'number' ? raw : Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) return 'must be a number';
      if (spec.type === 'integer' && !Number.isInteger(n)) return 'must be a whole number';
      if (spec.min !== undefined && n < spec.min) return `must be at least ${spec.min}`;
      if (spec.max !== undefined && n > spec.max) return `must be at most ${spec.max}`;
      return undefined;
    }
    case 'enum':
      return spec.values?.includes(text) ? undefined : `must be one of ${spec.values?.join(', ')}`;
    case 'language':
      return /^[a-z]{2,3}$/.test(text)
        ? undefined
        : `must be a language code such as en or de (known: ${LANGUAGES.slice(0, 8).join(', ')}, …)`;
    case 'string':
      if (text.length === 0) return 'must not be empty';
      if (spec.maxLength !== undefined && text.length > spec.maxLength) {
        return `must be at most ${spec.maxLength} characters`;
      }
      return undefined;
  }
}

/** Problems with `params` for `template`, one sentence each; empty when all is well. */
export function validateParams(template: TemplateSpec, params: Params): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    const spec = findParam(template, name);
    if (!spec) {
      const known = template.params.map((p) => p.name);
      problems.push(
        known.length
          ? `${name}: the template "${template.name}" has no such parameter (it accepts ${known.slice(0, 12).join(', ')}${known.length > 12 ? ', …' : ''}).`
          : `${name}: the template "${template.name}" takes no parameters.`,
      );
      continue;
    }
    const values: ParamValue[] = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && !spec.repeatable) problems.push(`${name}: takes a single value.`);
    for (const v of values) {
      const why = checkScalar(spec, v as string | number | boolean);
      if (why) problems.push(`${name}: ${why} (got ${JSON.stringify(v)}).`);
    }
  }
  const min = Number(params.minSpeakersNumber);
  const max = Number(params.maxSpeakersNumber);
  if (Number.isFinite(min) && Number.isFinite(max) && min > max) {
    problems.push('minSpeakersNumber: must not exceed maxSpeakersNumber.');
  }
  return problems;
}

export interface TemplateProblem {
  /** `templateId`, or `params.<name>`. */
  field: string;
  /** What is wrong, without the field's name (for a form field). */
  detail: string;
  /** One sentence naming the field (for a message or a command line). */
  message: string;
}

/**
 * The one check of a template and its parameters, before a job is queued or a setting saved: the
 * app's handlers, the runtime and the CLI all ask here.
 */
export function templateProblems(templateId: string, params: Params): TemplateProblem[] {
  const template = findTemplate(templateId);
  if (!template) {
    const detail = `There is no template ${templateId}.`;
    return [{ field: 'templateId', detail, message: detail }];
  }
  return validateParams(template, params).map((message) => {
    const name = message.slice(0, message.indexOf(':'));
    return { field: `params.${name}`, detail: message.slice(name.length + 1).trim(), message };
  });
}

/** Only the parameters the template knows: what is sent to the gateway. */
export function acceptedParams(template: TemplateSpec, params: Params): Params {
  return Object.fromEntries(Object.entries(params).filter(([name]) => findParam(template, name) !== undefined));
}

/** `key=value` pairs from the command line; a repeated repeatable key becomes a list. */
export function parseParamPairs(pairs: readonly string[], template: TemplateSpec | undefined): Params {
  const out: Params = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--param ${pair}: expected key=value.`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const spec = template ? findParam(template, key) : undefined;
    const prev = out[key];
    if (spec?.repeatable)
      out[key] = [...(Array.isArray(prev) ? prev : prev === undefined ? [] : [String(prev)]), value];
    else if (spec?.type === 'boolean' && (value === 'true' || value === 'false')) out[key] = value === 'true';
    else if ((spec?.type === 'number' || spec?.type === 'integer') && value.trim() !== '' && Number.isFinite(+value)) {
      out[key] = Number(value);
    } else out[key] = value;
  }
  return out;
}
