// The currencies Usage and Settings offer: credits, then those the service prices usage in (main
// asks it, usage:currencies), by name. A saved currency the service no longer prices stays in the
// list, so the choice shows as it is, with a message saying to choose another.

const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' });
const nameOf = (code: string): string => (currencyNames.of(code) ?? code).toLowerCase();

export interface CurrencyOption {
  id: string;
  label: string;
}

export const CREDITS: CurrencyOption = { id: '', label: 'Credits' };

/** "Euro (EUR)"; the code alone when the browser has no name for it. */
export function currencyLabel(code: string): string {
  const name = currencyNames.of(code);
  return name && name !== code ? `${name} (${code})` : code;
}

/**
 * Credits first, then `codes` by name; `keep` (the saved currency) is listed too when missing, so a
 * choice the service no longer prices still shows as chosen.
 */
export function currencyOptions(codes: readonly string[], keep?: string | null): CurrencyOption[] {
  const all = new Set(codes.map((c) => c.toUpperCase()));
  if (keep) all.add(keep);
  return [
    CREDITS,
    ...[...all]
      .map((code) => ({ id: code, label: currencyLabel(code) }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  ];
}

/** What the currency field says when the service does not (or no longer) price the saved one. */
export function notPricedMessage(code: string): string {
  return `The service no longer prices usage in ${currencyLabel(code)}. Choose another currency, or Credits.`;
}

/**
 * The code for what was typed or picked among `options`: '' for credits, an upper-case ISO code for a
 * code, a name or a label of the list ("Euro (EUR)", "eur", "euro", "yen"); undefined when nothing
 * or several match.
 */
export function currencyOf(raw: string, options: readonly CurrencyOption[]): string | undefined {
  const t = raw.trim().toLowerCase();
  if (t === '' || t === 'credits') return '';
  const found = options.find(
    (c) => c.id !== '' && (c.id.toLowerCase() === t || c.label.toLowerCase() === t || nameOf(c.id) === t),
  );
  if (found) return found.id;
  // A part of one name only ("yen" is the Japanese Yen): that one.
  const partial = options.filter((c) => c.id !== '' && c.label.toLowerCase().includes(t));
  return partial.length === 1 ? partial[0]?.id : undefined;
}
