// The rules a prompt's response format (`ask<N>Format`, §11.2) must meet: JSON Schema text whose
// root is an object, with no `default` anywhere and no free-form object (an object lists its
// properties and allows no others). Shared: the sandbox refuses what breaks them, as the service
// does, and Sluice checks its own recipes against them.

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sub-schemas a schema holds, with the path each is at. */
function children(schema: Record<string, unknown>, at: string): Array<[unknown, string]> {
  const out: Array<[unknown, string]> = [];
  for (const key of ['properties', '$defs', 'definitions']) {
    const map = schema[key];
    if (isRecord(map)) for (const [k, v] of Object.entries(map)) out.push([v, `${at}/${key}/${k}`]);
  }
  for (const key of ['items', 'not', 'if', 'then', 'else', 'contains']) {
    if (schema[key] !== undefined) out.push([schema[key], `${at}/${key}`]);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((v, i) => out.push([v, `${at}/${key}/${i}`]));
  }
  return out;
}

function problemAt(schema: unknown, at: string): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (!isRecord(schema)) return `${at || '/'} is not a schema object`;
  if ('default' in schema) return `${at || '/'} has a default value, which response formats may not have`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object')) {
    const props = schema.properties;
    if (!isRecord(props) || Object.keys(props).length === 0) {
      return `${at || '/'} is a free-form object: list its properties`;
    }
    if (schema.additionalProperties !== false || schema.patternProperties !== undefined) {
      return `${at || '/'} is a free-form object: set additionalProperties to false`;
    }
  }
  for (const [child, path] of children(schema, at)) {
    const why = problemAt(child, path);
    if (why) return why;
  }
  return undefined;
}

/** Why `text` cannot be a response format, or undefined when it can. */
export function responseFormatProblem(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'is not valid JSON Schema text';
  }
  if (!isRecord(parsed)) return 'must be a JSON Schema object';
  if (parsed.type !== 'object') return 'must describe an object (its root "type" must be "object")';
  return problemAt(parsed, '');
}
