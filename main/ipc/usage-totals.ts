// The usage report lists operations and templates once per time bucket (§7.2); the screen wants one
// bar per operation or template for the whole period, so the buckets are added up here. Amounts
// are decimal strings (the service keeps their precision), so they are added as decimals.
import type { UsageItemView } from '../../preload/contract.js';

/** Exact sum of two decimal strings ("0.1" + "0.2" = "0.3"); a malformed one counts as 0. */
export function addDecimal(a: string, b: string): string {
  const parse = (s: string): { int: bigint; scale: number } => {
    const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(s.trim());
    if (!m || (m[2] === '' && !m[3])) return { int: 0n, scale: 0 };
    const frac = m[3] ?? '';
    return { int: BigInt(`${m[1]}${m[2] || '0'}${frac}`), scale: frac.length };
  };
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  const sum = x.int * 10n ** BigInt(scale - x.scale) + y.int * 10n ** BigInt(scale - y.scale);
  const neg = sum < 0n;
  const digits = (neg ? -sum : sum).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const frac = scale ? digits.slice(digits.length - scale).replace(/0+$/, '') : '';
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

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
