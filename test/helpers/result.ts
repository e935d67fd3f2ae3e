// A bridge Result's value, or a failure that shows the error it carried.
import type { Result } from '../../preload/contract.js';

export function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value;
}
