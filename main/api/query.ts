// Query strings and configuration patches (§3, §4.3). Every key and value is percent-encoded with
// encodeURIComponent so `+` travels as %2B (a raw `+` would be decoded as a space).

export type QueryPairs = ReadonlyArray<readonly [string, string]>;

export function buildQuery(pairs: QueryPairs): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/** A template parameter value: patches accept scalars or arrays of them (§4.3). */
export type ParamScalar = string | number | boolean;
export type ParamValue = ParamScalar | readonly ParamScalar[];

/**
 * A leading `+` means "add" and a lone `-` means "remove" to the service; prompts such as
 * `- bullet` or `+1 call` must stay literal, so a leading sign is escaped with a backslash. The
 * service only unescapes a leading `\+`/`\-` (C7), so nothing else is touched.
 */
export function escapePatchValue(value: string): string {
  return value.startsWith('+') || value.startsWith('-') ? `\\${value}` : value;
}

function scalarText(v: ParamScalar): string {
  return escapePatchValue(typeof v === 'string' ? v : String(v));
}

/** Query form: arrays repeat the key (`language=en&language=fr`). */
export function patchQueryPairs(key: string, value: ParamValue): Array<[string, string]> {
  const values: readonly ParamScalar[] = Array.isArray(value) ? value : [value as ParamScalar];
  return values.map((v) => [key, scalarText(v)]);
}

/** Multipart JSON form: same grammar, so strings are escaped too; numbers and booleans keep their type. */
export function patchJsonValue(value: ParamValue): unknown {
  const one = (v: ParamScalar): unknown => (typeof v === 'string' ? escapePatchValue(v) : v);
  return Array.isArray(value) ? value.map(one) : one(value as ParamScalar);
}
