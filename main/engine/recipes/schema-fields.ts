// An answer's JSON Schema in words, for people reading a recipe: one line per field with its
// path (`chapters[].title`), what kind of value it holds and the schema's own description. Pure;
// reads only what recipe schemas use (objects, arrays, strings, numbers, booleans).

export interface SchemaField {
  /** `title`, `chapters` (the list), `chapters[].title` (a field of each item). */
  path: string;
  /** `text`, `number`, `list of 3–5`… */
  type: string;
  description: string;
}

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'number',
  integer: 'whole number',
  boolean: 'yes or no',
  object: 'group',
};

function count(s: Schema): string {
  const min = typeof s.minItems === 'number' ? s.minItems : undefined;
  const max = typeof s.maxItems === 'number' ? s.maxItems : undefined;
  if (min !== undefined && max !== undefined) return min === max ? `${min}` : `${min}–${max}`;
  if (max !== undefined) return `up to ${max}`;
  if (min !== undefined) return `at least ${min}`;
  return 'any number';
}

function kind(s: Schema): string {
  return typeof s.type === 'string' ? (KINDS[s.type] ?? s.type) : 'any value';
}

const described = (s: Schema): string => (typeof s.description === 'string' ? s.description : '');

function walk(s: Schema, path: string, out: SchemaField[]): void {
  if (s.type === 'object' && isSchema(s.properties)) {
    for (const [key, child] of Object.entries(s.properties)) {
      if (isSchema(child)) walk(child, path ? `${path}.${key}` : key, out);
    }
    return;
  }
  if (s.type === 'array') {
    const items = isSchema(s.items) ? s.items : {};
    const of = items.type === 'object' ? 'entries' : items.type ? `${kind(items)} items` : 'items';
    out.push({ path, type: `list of ${count(s)} ${of}`, description: described(s) });
    walk(items, `${path}[]`, out);
    return;
  }
  out.push({ path, type: kind(s), description: described(s) });
}

/** The fields of an answer schema, in the schema's order; the top object itself is not listed. */
export function schemaFields(schema: Schema): SchemaField[] {
  const out: SchemaField[] = [];
  walk(schema, '', out);
  return out;
}
