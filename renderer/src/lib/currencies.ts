// The currencies Usage and Settings offer: credits, then every ISO 4217 code the browser knows, by
// name. The service says which it prices in (an unknown one comes back as a field error).

const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' });
const nameOf = (code: string): string => (currencyNames.of(code) ?? code).toLowerCase();

/** Credits first, then by name. */
export const CURRENCIES: ReadonlyArray<{ id: string; label: string }> = [
  { id: '', label: 'Credits' },
  ...Intl.supportedValuesOf('currency')
    .map((code) => ({ id: code, label: `${currencyNames.of(code) ?? code} (${code})` }))
    .sort((a, b) => a.label.localeCompare(b.label)),
];

/**
 * The code for what was typed or picked: '' for credits, an upper-case ISO code for a code, a name
 * or a label of the list ("Euro (EUR)", "eur", "euro", "yen"); undefined when nothing or several match.
 */
export function currencyOf(raw: string): string | undefined {
  const t = raw.trim().toLowerCase();
  if (t === '' || t === 'credits') return '';
  const found = CURRENCIES.find(
    (c) => c.id !== '' && (c.id.toLowerCase() === t || c.label.toLowerCase() === t || nameOf(c.id) === t),
  );
  if (found) return found.id;
  // A part of one name only ("yen" is the Japanese Yen): that one.
  const partial = CURRENCIES.filter((c) => c.id !== '' && c.label.toLowerCase().includes(t));
  return partial.length === 1 ? partial[0]?.id : undefined;
}
