// Switching template keeps what was typed: every parameter the new template accepts stays (values
// it would refuse, such as an enum value it does not list, are dropped), the rest goes.
import type { ParamSpecView, Params } from '../../../preload/contract.js';

function fits(spec: ParamSpecView, value: Params[string]): boolean {
  if (Array.isArray(value) && !spec.repeatable) return false;
  if (spec.type === 'enum' && spec.values) {
    const values = Array.isArray(value) ? value : [value];
    return values.every((v) => spec.values?.includes(String(v)) === true);
  }
  return true;
}

export function carryParams(values: Params, specs: readonly ParamSpecView[]): Params {
  const out: Params = {};
  for (const [name, value] of Object.entries(values)) {
    const spec = specs.find((s) => s.name === name);
    if (spec && fits(spec, value)) out[name] = value;
  }
  return out;
}
