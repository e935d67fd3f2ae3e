import { describe, expect, it } from 'vitest';
import { currencyOf, currencyOptions, notPricedMessage } from '../../renderer/src/lib/currencies.js';

// What a service pricing a few currencies answers (usage:currencies).
const PRICED = ['USD', 'EUR', 'GBP', 'JPY', 'RON', 'CAD', 'AUD'];

describe('currencyOf', () => {
  const options = currencyOptions(PRICED);
  it.each([
    ['', ''],
    ['Credits', ''],
    ['Euro (EUR)', 'EUR'],
    ['eur', 'EUR'],
    ['  ron ', 'RON'],
    ['euro', 'EUR'],
    ['yen', 'JPY'],
    ['Zorkmid', undefined],
    // A code the service does not price is not in the list.
    ['AFN', undefined],
    // Several names hold "dollar": none is guessed.
    ['dollar', undefined],
  ])('%j is %j', (typed, code) => {
    expect(currencyOf(typed, options)).toBe(code);
  });
});

describe('currencyOptions', () => {
  it("lists credits first, then the service's codes by name", () => {
    const options = currencyOptions(PRICED);
    expect(options[0]).toEqual({ id: '', label: 'Credits' });
    expect(options).toContainEqual({ id: 'GBP', label: 'British Pound (GBP)' });
    expect(options.map((o) => o.id).sort()).toEqual(['', ...PRICED].sort());
    const names = options.slice(1).map((c) => c.label);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('keeps a saved currency the service no longer prices, so the choice shows, and says so', () => {
    expect(currencyOptions(PRICED, 'AFN')).toContainEqual({ id: 'AFN', label: 'Afghan Afghani (AFN)' });
    expect(currencyOptions(PRICED, 'EUR')).toHaveLength(PRICED.length + 1);
    expect(notPricedMessage('AFN')).toBe(
      'The service no longer prices usage in Afghan Afghani (AFN). Choose another currency, or Credits.',
    );
  });
});
