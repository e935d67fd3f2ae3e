// Patch grammar of contract §4.3: which inputs are patches, what each key targets, and which
// operation a value asks for. Pure; typing and application live in patch-apply.ts.
import { RESERVED_UPLOAD_KEYS } from '../service/policy.js';
import { findParam, type ParamSpec, type ProcessorId, type TemplateSpec } from '../service/templates.js';
import { badPatch, SandboxHttpError } from './http-error.js';

export type PatchOpName = 'add' | 'replace' | 'remove';

export interface PatchOp {
  op: PatchOpName;
  /** The key as written (alias, dotted/slashed path or JSON pointer), for error messages. */
  key: string;
  /** True for RFC 6902 pointers from the header, whose path is always a pointer. */
  pointer: boolean;
  value: unknown;
  /** Query/multipart string values are text and get converted to the property's type (C7). */
  fromText: boolean;
}

export interface PatchTarget {
  processorIndex: number;
  processorId: string;
  /** Path inside the processor's `properties`. */
  path: string[];
  param: ParamSpec | undefined;
}

/** §4.2 parameters and the auth parameters of §2.1: never patches (unless prefixed `patches.`). */
const DOCUMENTED = new Set(RESERVED_UPLOAD_KEYS);

export const isWebhookKey = (key: string): boolean => key === 'webhook' || key.startsWith('webhook.');

function isDocumentedParam(key: string): boolean {
  return DOCUMENTED.has(key) || isWebhookKey(key);
}

/** Groups repeated query keys (order of first appearance kept): repeated keys make arrays. */
export function groupQuery(params: URLSearchParams): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of params) {
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

const unescapeSign = (v: string): string => (v.startsWith('\\+') || v.startsWith('\\-') ? v.slice(1) : v);

/** The value decides the operation: `-` remove, `+x` add x, `\+x`/`\-x` replace with the literal. */
export function opFromText(value: string): { op: PatchOpName; value: string | null } {
  if (value === '-') return { op: 'remove', value: null };
  if (value.startsWith('+')) return { op: 'add', value: value.slice(1) };
  return { op: 'replace', value: unescapeSign(value) };
}

function textOp(key: string, values: readonly unknown[]): PatchOp {
  if (values.length === 1) {
    const v = values[0];
    if (typeof v === 'string') return { key, pointer: false, fromText: true, ...opFromText(v) };
    return { op: 'replace', key, pointer: false, fromText: false, value: v };
  }
  const arr = values.map((v) => (typeof v === 'string' ? unescapeSign(v) : v));
  return { op: 'replace', key, pointer: false, fromText: true, value: arr };
}

/** Query patches: every key that is not documented; `patches.` marks one explicitly. */
export function queryPatches(query: Map<string, string[]>): PatchOp[] {
  const ops: PatchOp[] = [];
  for (const [key, values] of query) {
    if (key.startsWith('patches.')) ops.push(textOp(key.slice('patches.'.length), values));
    else if (!isDocumentedParam(key)) ops.push(textOp(key, values));
  }
  return ops;
}

/** Multipart `patches` map: same key grammar; JSON values keep their type, arrays allowed. */
export function multipartPatches(patches: unknown): PatchOp[] {
  if (patches === undefined || patches === null) return [];
  if (typeof patches !== 'object' || Array.isArray(patches)) {
    throw new SandboxHttpError(400, 'HTTP_STREAM_CONFIGURATION_ERROR', '`patches` must be an object');
  }
  return Object.entries(patches as Record<string, unknown>).map(([rawKey, v]) => {
    const key = rawKey.startsWith('patches.') ? rawKey.slice('patches.'.length) : rawKey;
    return Array.isArray(v) ? textOp(key, v) : textOp(key, [v]);
  });
}

/** X-Vat-Meta-Template-Patch: an RFC 6902 array (a single operation object is tolerated). */
export function headerPatches(header: string | undefined): PatchOp[] {
  if (header === undefined || header.trim() === '') return [];
  let doc: unknown;
  try {
    doc = JSON.parse(header);
  } catch {
    throw new SandboxHttpError(400, 'HTTP_STREAM_CONFIGURATION_ERROR', 'X-Vat-Meta-Template-Patch is not valid JSON');
  }
  const list = Array.isArray(doc) ? doc : [doc];
  return list.map((raw) => {
    const o = raw as { op?: unknown; path?: unknown; value?: unknown };
    if (typeof o !== 'object' || o === null || typeof o.path !== 'string' || typeof o.op !== 'string') {
      throw new SandboxHttpError(400, 'HTTP_STREAM_CONFIGURATION_ERROR', 'Malformed JSON Patch operation');
    }
    if (o.op !== 'add' && o.op !== 'replace' && o.op !== 'remove') {
      throw badPatch(`Forbidden patch operation: ${o.op}`);
    }
    return { op: o.op, key: o.path, pointer: true, fromText: false, value: o.op === 'remove' ? null : o.value };
  });
}

function pointerSegments(pointer: string): string[] {
  const body = pointer.startsWith('/') ? pointer.slice(1) : pointer;
  return body.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Dots become slashes; slash forms (with or without the leading slash) are the same path. */
function keySegments(key: string): string[] {
  if (key.includes('/')) return pointerSegments(key);
  return key.split('.');
}

/** Resolves a key to a processor property, or throws the §11.3 "Forbidden patch" 400. */
export function resolveTarget(template: TemplateSpec, op: PatchOp): PatchTarget {
  const procs = template.processors;
  const segs = op.pointer ? pointerSegments(op.key) : keySegments(op.key);
  if (segs.length === 0 || segs.some((s) => s === '')) {
    throw new SandboxHttpError(400, 'STREAM_CONFIGURATION_BAD_PATCH_ALIAS', `Invalid patch alias: ${op.key}`, {
      title: 'Invalid stream configuration',
    });
  }
  // An alias is matched before dots become slashes (§4.3: alias first, path otherwise), so a
  // dotted alias such as `stream.summaryStyle` is one; aliases cannot contain `/`.
  const whole = op.pointer ? (segs.length === 1 ? segs[0] : undefined) : op.key.includes('/') ? undefined : op.key;
  const alias = whole !== undefined ? findParam(template, whole) : undefined;
  if (alias) {
    const idx = procs.indexOf(alias.processor);
    if (idx >= 0) return { processorIndex: idx, processorId: alias.processor, path: [...alias.path], param: alias };
  }
  const forbidden = (): SandboxHttpError => badPatch(`Forbidden patch: /${segs.join('/')}`);
  if (segs.length < 4 || segs[0] !== 'processors' || segs[2] !== 'properties') throw forbidden();
  const ref = segs[1] ?? '';
  const idx = /^\d+$/.test(ref) ? Number(ref) : procs.indexOf(ref as ProcessorId);
  const proc = procs[idx];
  if (!proc) throw forbidden();
  const path = segs.slice(3);
  const param = template.params.find(
    (p) => p.processor === proc && p.path.length === path.length && p.path.every((s, i) => s === path[i]),
  );
  return { processorIndex: idx, processorId: proc, path, param };
}
