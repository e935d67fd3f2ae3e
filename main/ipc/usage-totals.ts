// The usage report lists operations and templates once per time bucket (§7.2); the screen wants one
// bar per operation or template for the whole period, so the buckets are added up here. Amounts
// are decimal strings (the service keeps their precision), so they are added as decimals.
import type { UsageItemView } from '../../preload/contract.js';
import { addDecimal } from '../engine/decimal.js';

export { addDecimal };

/** One item per `key` over the whole period: amounts, streams and measurements added up, in first-seen order. */
export function totalsBy<T extends UsageItemView>(items: readonly T[], key: (i: T) => string | undefined): T[] {
  const out = new Map<string, T>();
  for (const i of items) {
    const k = key(i) ?? '';
    const had = out.get(k);
    if (!had) {
      out.set(k, { ...i, measurements: { ...i.measurements } });
      continue;
    }
    const measurements = { ...had.measurements };
    for (const [m, v] of Object.entries(i.measurements)) {
      measurements[m] = (BigInt(measurements[m] ?? '0') + BigInt(/^-?\d+$/.test(v) ? v : '0')).toString();
    }
    out.set(k, {
      ...had,
      credits: addDecimal(had.credits, i.credits),
      startTimestamp: Math.min(had.startTimestamp, i.startTimestamp),
      endTimestamp: Math.max(had.endTimestamp, i.endTimestamp),
      streamsCount: had.streamsCount + i.streamsCount,
      measurements,
    });
  }
  return [...out.values()];
}
