import { describe, expect, it } from 'vitest';
import { CURRENCIES, currencyOf } from '../../renderer/src/lib/currencies.js';

describe('currencyOf', () => {
  it.each([
    ['', ''],
    ['Credits', ''],
    ['Euro (EUR)', 'EUR'],
    ['eur', 'EUR'],
    ['  ron ', 'RON'],
    ['euro', 'EUR'],
    ['yen', 'JPY'],
    ['Zorkmid', undefined],
    // Several names hold "dollar": none is guessed.
    ['dollar', undefined],
  ])('%j is %j', (typed, code) => {
    expect(currencyOf(typed)).toBe(code);
  });

  it('lists credits first, then every code by its name', () => {
    expect(CURRENCIES[0]).toEqual({ id: '', label: 'Credits' });
    expect(CURRENCIES).toContainEqual({ id: 'GBP', label: 'British Pound (GBP)' });
    const names = CURRENCIES.slice(1).map((c) => c.label);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });
});
