// Template parameters on Sluice's side: checked when a job or watch folder is set up (a typo is a
// 400 from the gateway, §4.3, so it is caught before any upload), and filtered before upload so
// only parameters the template accepts are ever sent.
import { BUILTIN_CATALOGUE, catalogueTemplate, type TemplateCatalogue } from '../service/template-catalogue.js';
import {
  findParam,
  isTemplateId,
  LANGUAGES,
  TEMPLATE_ID_RULE,
  type AnyParam as ParamSpec,
  type AnyTemplate as TemplateSpec,
} from '../service/templates.js';
import { combinationRefusals } from '../service/combinations.js';
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
  return [...problems, ...combinationProblems(template, params)];
}

const SLOTS = [0, 1, 2] as const;

/**
 * What the service refuses in a combination of parameters, refused here first by the sandbox's own
 * check (service/combinations.ts): splitStereo with diarization, more speakers at least than at
 * most, a response format the service would not take, two questions with one answer key.
 */
function combinationProblems(template: TemplateSpec, params: Params): string[] {
  const num = (v: unknown): number | undefined => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    return Number.isFinite(n) ? n : undefined;
  };
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  const min = num(params.minSpeakersNumber);
  const max = num(params.maxSpeakersNumber);
  const split = params.splitStereo;
  return combinationRefusals({
    diarizes: template.diarizes === true,
    splitStereo: split === true || split === 'true',
    ...(min === undefined ? {} : { minSpeakers: min }),
    ...(max === undefined ? {} : { maxSpeakers: max }),
    asks: SLOTS.map((n) => {
      const format = text(params[`ask${n}Format`]);
      return {
        slot: n,
        key: text(params[`ask${n}Id`]) ?? String(n),
        active: text(params[`ask${n}`]) !== undefined,
        ...(format === undefined ? {} : { format }),
      };
    }),
  }).map((r) => `${r.param}: ${r.detail}.`);
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
 * app's handlers, the runtime and the CLI all ask here. `catalogue` is what the account offers
 * (§13) merged with the public templates; a template it does not describe is not refused: its
 * parameters go unchecked (see `uncheckedNotice`) and the service's answer decides.
 */
export function templateProblems(
  templateId: string,
  params: Params,
  catalogue: TemplateCatalogue = BUILTIN_CATALOGUE,
): TemplateProblem[] {
  if (!isTemplateId(templateId)) {
    const detail = `"${templateId}" is not a template id: use ${TEMPLATE_ID_RULE}.`;
    return [{ field: 'templateId', detail, message: detail }];
  }
  const template = catalogueTemplate(catalogue, templateId);
  if (!template) return [];
  return validateParams(template, params).map((message) => {
    const name = message.slice(0, message.indexOf(':'));
    return { field: `params.${name}`, detail: message.slice(name.length + 1).trim(), message };
  });
}

/** Said once when `templateId` is one Sluice cannot describe, so its parameters are sent unchecked. */
export function uncheckedNotice(templateId: string, catalogue: TemplateCatalogue): string | undefined {
  if (!isTemplateId(templateId) || catalogueTemplate(catalogue, templateId)) return undefined;
  const why =
    catalogue.source === 'account'
      ? 'it is not among the templates the account lists'
      : 'the account’s templates could not be read';
  return `Sluice cannot describe template ${templateId} (${why}): its parameters are sent unchecked, and the service decides.`;
}

/** Only the parameters the template knows: what is sent to the gateway. */
export function acceptedParams(template: TemplateSpec, params: Params): Params {
  return Object.fromEntries(Object.entries(params).filter(([name]) => findParam(template, name) !== undefined));
}

/**
 * A value in the case the service accepts: language codes are lowercase (§11.2, C29) and so are
 * the documented enum values (§16: `Conversational` in the guides is `conversational`).
 */
export function normaliseValue(spec: ParamSpec | undefined, value: string): string {
  if (spec?.type === 'language') return value.trim().toLowerCase();
  if (spec?.type === 'enum') return spec.values?.find((v) => v.toLowerCase() === value.toLowerCase()) ?? value;
  return value;
}

/**
 * `key=value` pairs from the command line; a repeated key becomes a list when the template says it
 * may repeat, or when Sluice cannot describe the template (the service then decides).
 */
export function parseParamPairs(pairs: readonly string[], template: TemplateSpec | undefined): Params {
  const out: Params = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--param ${pair}: expected key=value.`);
    const key = pair.slice(0, eq);
    const spec = template ? findParam(template, key) : undefined;
    const value = normaliseValue(spec, pair.slice(eq + 1));
    const prev = out[key];
    if (spec?.repeatable || (!template && prev !== undefined))
      out[key] = [...(Array.isArray(prev) ? prev : prev === undefined ? [] : [String(prev)]), value];
    else if (spec?.type === 'boolean' && (value === 'true' || value === 'false')) out[key] = value === 'true';
    else if ((spec?.type === 'number' || spec?.type === 'integer') && value.trim() !== '' && Number.isFinite(+value)) {
      out[key] = Number(value);
    } else out[key] = value;
  }
  return out;
}

/** One RFC 6902 operation for the configuration service's preview (§13). */
export interface PreviewPatch {
  op: 'replace';
  path: string;
  value: ParamValue;
}

const pointer = (segments: readonly string[]): string =>
  `/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/**
 * The parameters as JSON Patch operations on the template. A described parameter targets its
 * property (`/processors/<index>/properties/…`, values typed as the form holds them); a parameter
 * Sluice cannot place is sent under its own name, as an alias, for the service to judge.
 */
export function previewPatches(template: TemplateSpec | undefined, params: Params): PreviewPatch[] {
  return Object.entries(params).map(([name, value]) => {
    const spec = template ? findParam(template, name) : undefined;
    const index = spec && template ? template.processors.indexOf(spec.processor) : -1;
    const path =
      spec && index >= 0 ? pointer(['processors', String(index), 'properties', ...spec.path]) : pointer([name]);
    return { op: 'replace', path, value };
  });
}
