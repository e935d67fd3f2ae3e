// Applies patches to a template's processor properties: typing (C7), the forbidden combinations
// of §11.3, and the final validation. Pure: template + patches in, properties out (or a 400).
import { LIMITS } from '../service/policy.js';
import type { ParamSpec, TemplateSpec } from '../service/templates.js';
import { badPatch, badProperties } from './http-error.js';
import { combinationRefusals } from '../service/combinations.js';
import {
  headerPatches,
  multipartPatches,
  queryPatches,
  resolveTarget,
  type PatchOp,
  type PatchTarget,
} from './patch-grammar.js';
import { isRomanian, processorTemplates, type Props } from './processor-defaults.js';

const LANGUAGE = /^[a-z]{2,3}$/; // C29

export interface PatchSources {
  /** X-Vat-Meta-Template-Patch header text. */
  header?: string | undefined;
  /** Grouped query (see groupQuery); documented parameters are skipped. */
  query?: Map<string, string[]>;
  /** `patches` of the multipart configuration part. */
  multipart?: unknown;
}

/** C7: header, then query, then multipart; the last one to touch a path wins. */
export function collectPatches(sources: PatchSources): PatchOp[] {
  return [
    ...headerPatches(sources.header),
    ...(sources.query ? queryPatches(sources.query) : []),
    ...multipartPatches(sources.multipart),
  ];
}

export function applyPatches(template: TemplateSpec, ops: readonly PatchOp[]): Props[] {
  const defaults = processorTemplates(template).map((p) => p.properties);
  const props = defaults.map((p) => structuredClone(p));
  for (const op of ops) {
    const target = resolveTarget(template, op);
    checkTarget(defaults[target.processorIndex] ?? {}, target, op);
    const bag = props[target.processorIndex] as Props;
    if (op.op === 'remove') {
      removeAt(bag, target.path);
      continue;
    }
    const value = typed(op, target, getAt(bag, target.path));
    if (op.op === 'add') addAt(bag, target.path, value);
    else setAt(bag, target.path, value);
  }
  normaliseLanguages(template, props);
  validate(template, props);
  return props;
}

/** `defaults`: the target processor's default properties. */
function checkTarget(defaults: Props, t: PatchTarget, op: PatchOp): void {
  const [top, second] = t.path;
  if (top === 'findReplaceExpressions') throw badPatch(`Forbidden patch: /${op.key.replace(/^\//, '')}`);
  if (top === 'askAnything' && second !== undefined && second !== '-' && Number(second) >= LIMITS.askSlots) {
    throw badPatch(`Forbidden patch: only ${LIMITS.askSlots} askAnything slots exist (${op.key})`);
  }
  if (top === undefined || !(top in defaults)) {
    throw badProperties(`Unknown property '${t.path.join('.')}' of processor '${t.processorId}'`);
  }
}

function isScalar(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

/** Converts one value to the target's type (from its ParamSpec, else from the default's type). */
function typed(op: PatchOp, t: PatchTarget, current: unknown): unknown {
  const v = op.value;
  const name = t.param?.name ?? t.path.join('.');
  if (current !== null && typeof current === 'object' && !Array.isArray(current)) {
    throw badProperties(`${name} is an object and cannot be set by a patch`);
  }
  if (Array.isArray(v)) {
    if (!v.every(isScalar)) throw badPatch(`Forbidden patch value for ${name}: objects cannot be set by patches`);
    const repeatable = t.param
      ? t.param.repeatable === true
      : Array.isArray(current) || t.path[0] === 'allowedLanguages';
    if (!repeatable && op.op !== 'add') throw badProperties(`${name} takes a single value`);
    return v.map((x) => convert(x, t.param, current, name, op.fromText));
  }
  if (!isScalar(v)) throw badPatch(`Forbidden patch value for ${name}: objects cannot be set by patches`);
  return convert(v, t.param, Array.isArray(current) ? current[0] : current, name, op.fromText);
}

function convert(v: unknown, spec: ParamSpec | undefined, current: unknown, name: string, fromText: boolean): unknown {
  const type = spec?.type ?? inferType(name, current);
  const fail = (why: string): never => {
    throw badProperties(`Invalid value for ${name}: ${JSON.stringify(v)} (${why})`);
  };
  if (v === null) return type === 'boolean' ? fail('expected a boolean') : null;
  switch (type) {
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (fromText && (v === 'true' || v === 'false')) return v === 'true';
      return fail('expected true or false');
    case 'number':
    case 'integer': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (!Number.isFinite(n)) return fail('expected a number');
      if (type === 'integer' && !Number.isInteger(n)) return fail('expected an integer');
      if (spec?.min !== undefined && n < spec.min) return fail(`minimum ${spec.min}`);
      if (spec?.max !== undefined && n > spec.max) return fail(`maximum ${spec.max}`);
      return n;
    }
    case 'enum':
      if (typeof v === 'string' && spec?.values?.includes(v)) return v;
      return fail(`expected one of ${spec?.values?.join(', ') ?? ''}`);
    case 'language':
      if (typeof v === 'string' && LANGUAGE.test(v)) return v;
      return fail('expected a 2 or 3 letter lowercase language code');
    case 'string': {
      const s = typeof v === 'string' ? v : String(v);
      if (spec?.maxLength !== undefined && s.length > spec.maxLength)
        return fail(`at most ${spec.maxLength} characters`);
      return s;
    }
  }
}

function inferType(name: string, current: unknown): ParamSpec['type'] {
  if (name === 'allowedLanguages') return 'language';
  if (typeof current === 'boolean') return 'boolean';
  if (typeof current === 'number') return Number.isInteger(current) ? 'integer' : 'number';
  return 'string';
}

type Container = Record<string, unknown> | unknown[];

function child(c: Container, key: string): unknown {
  return Array.isArray(c) ? c[Number(key)] : c[key];
}

function getAt(root: Props, path: readonly string[]): unknown {
  let cur: unknown = root;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = child(cur as Container, k);
  }
  return cur;
}

function parentOf(root: Props, path: readonly string[]): { parent: Container; key: string } {
  let cur: Container = root;
  for (const [i, k] of path.slice(0, -1).entries()) {
    let next = child(cur, k);
    if (next === null || typeof next !== 'object') {
      next = /^\d+$/.test(path[i + 1] ?? '') ? [] : {};
      if (Array.isArray(cur)) cur[Number(k)] = next;
      else cur[k] = next;
    }
    cur = next as Container;
  }
  return { parent: cur, key: path[path.length - 1] ?? '' };
}

function setAt(root: Props, path: readonly string[], value: unknown): void {
  const { parent, key } = parentOf(root, path);
  if (Array.isArray(parent)) {
    if (key === '-') parent.push(value);
    else parent[Number(key)] = value;
  } else parent[key] = value;
}

/** `+x`: appends to an array-valued property, otherwise behaves as replace. */
function addAt(root: Props, path: readonly string[], value: unknown): void {
  const current = getAt(root, path);
  if (Array.isArray(current)) current.push(...(Array.isArray(value) ? value : [value]));
  else setAt(root, path, value);
}

function removeAt(root: Props, path: readonly string[]): void {
  const { parent, key } = parentOf(root, path);
  if (Array.isArray(parent)) parent[Number(key)] = null;
  else delete parent[key];
}

/** Several `language` values mean code switching among them (§11.2, §11.4). */
function normaliseLanguages(template: TemplateSpec, props: Props[]): void {
  const idx = template.processors.indexOf('transcriber');
  const t = props[idx];
  if (!t || isRomanian(template)) return;
  if (Array.isArray(t.language)) {
    const langs = [...new Set(t.language as string[])];
    t.language = langs.length === 1 ? (langs[0] ?? null) : null;
    if (langs.length > 1) t.allowedLanguages = langs;
  }
  if (typeof t.language === 'string' && Array.isArray(t.allowedLanguages) && !t.allowedLanguages.includes(t.language)) {
    t.allowedLanguages = [...(t.allowedLanguages as string[]), t.language];
  }
}

function validate(template: TemplateSpec, props: Props[]): void {
  const get = (id: string): Props | undefined => props[template.processors.indexOf(id as never)];
  const d = get('diarization');
  const asks = get('llm')?.askAnything;
  if (Array.isArray(asks) && asks.length > LIMITS.askSlots) {
    throw badPatch(`Forbidden patch: only ${LIMITS.askSlots} askAnything slots exist`);
  }
  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  const refused = combinationRefusals({
    diarizes: template.diarizes,
    splitStereo: get('transcriber')?.splitStereo === true,
    ...(num(d?.minSpeakersNumber) === undefined ? {} : { minSpeakers: num(d?.minSpeakersNumber) }),
    ...(num(d?.maxSpeakersNumber) === undefined ? {} : { maxSpeakers: num(d?.maxSpeakersNumber) }),
    asks: (Array.isArray(asks) ? asks : []).map((slot, n) => {
      const s = (slot ?? {}) as Props;
      const spec = (s.responseFormat as { specification?: unknown } | null | undefined)?.specification;
      return {
        slot: n,
        key: typeof s.promptId === 'string' && s.promptId !== '' ? s.promptId : String(n),
        active: typeof s.content === 'string' && s.content.trim() !== '' && s.enabled !== false,
        ...(typeof spec === 'string' ? { format: spec } : {}),
      };
    }),
  })[0];
  if (refused?.kind === 'patch')
    throw badPatch(`Forbidden patch: /${refused.param} (${refused.param} ${refused.detail})`);
  if (refused) throw badProperties(`${refused.param} ${refused.detail}`);
}
