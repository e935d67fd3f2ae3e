// Amounts from the usage service are decimal strings (it keeps their precision, §7.2), so they are
// added as decimals, never as floats. Pure.

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
