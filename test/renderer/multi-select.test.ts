import { describe, expect, it } from 'vitest';
import {
  CLOSED,
  filterChoices,
  pickerInput,
  pickerKey,
  toggleValue,
  type Choice,
  type PickerState,
} from '../../renderer/src/lib/multi-select.js';

const CHOICES: Choice[] = [
  { value: 'de', label: 'German' },
  { value: 'en', label: 'English' },
  { value: 'ht', label: 'Haitian Creole' },
  { value: 'ro', label: 'Romanian' },
  { value: 'mi', label: 'Māori' },
];

const open = (active: number, navigated = true): PickerState => ({ query: '', open: true, active, navigated });

describe('filterChoices', () => {
  it.each([
    ['', ['de', 'en', 'ht', 'ro', 'mi']],
    ['ro', ['ro']],
    ['en', ['en']],
    ['ger', ['de']],
    ['creole', ['ht']],
    ['maori', ['mi']],
    ['ROM', ['ro']],
    ['an', ['de', 'ht', 'ro']],
    ['xyz', []],
  ])('%j → %j', (query, values) => {
    expect(filterChoices(CHOICES, query).map((c) => c.value)).toEqual(values);
  });
});

describe('pickerKey', () => {
  it('ArrowDown opens a closed list on the first option, then moves and stops at the end', () => {
    let s = pickerKey(CLOSED, 'ArrowDown', CHOICES, []).state;
    expect(s).toMatchObject({ open: true, active: 0, navigated: true });
    for (let i = 0; i < 10; i++) s = pickerKey(s, 'ArrowDown', CHOICES, []).state;
    expect(s.active).toBe(CHOICES.length - 1);
    s = pickerKey(s, 'ArrowUp', CHOICES, []).state;
    expect(s.active).toBe(CHOICES.length - 2);
    expect(pickerKey(s, 'Home', CHOICES, []).state.active).toBe(0);
    expect(pickerKey(s, 'End', CHOICES, []).state.active).toBe(CHOICES.length - 1);
  });

  it('Enter toggles the active option on and off, keeping the order chosen', () => {
    const on = pickerKey(open(3), 'Enter', CHOICES, ['en']);
    expect(on).toMatchObject({ selected: ['en', 'ro'], handled: true });
    expect(pickerKey(open(3), 'Enter', CHOICES, ['ro', 'en']).selected).toEqual(['en']);
  });

  it('Space toggles only after the arrows; while typing it is a space', () => {
    expect(pickerKey(open(0, true), ' ', CHOICES, [])).toMatchObject({ selected: ['de'], handled: true });
    expect(pickerKey(open(0, false), ' ', CHOICES, [])).toMatchObject({ selected: [], handled: false });
  });

  it('Backspace in an empty field removes the last chip; with text it edits the text', () => {
    expect(pickerKey(open(0), 'Backspace', CHOICES, ['en', 'de'])).toMatchObject({ selected: ['en'], handled: true });
    const typing = { ...open(0), query: 'ro' };
    expect(pickerKey(typing, 'Backspace', CHOICES, ['en'])).toMatchObject({ selected: ['en'], handled: false });
    expect(pickerKey(open(0), 'Backspace', CHOICES, [])).toMatchObject({ handled: false });
  });

  it('Escape closes and clears the query; a closed, empty field lets Escape through', () => {
    expect(pickerKey({ ...open(2), query: 'r' }, 'Escape', CHOICES, [])).toMatchObject({
      state: CLOSED,
      handled: true,
    });
    expect(pickerKey(CLOSED, 'Escape', CHOICES, []).handled).toBe(false);
  });

  it('Enter with nothing to toggle changes nothing (and does not submit the form while open)', () => {
    expect(pickerKey(open(-1), 'Enter', [], ['en'])).toMatchObject({ selected: ['en'], handled: true });
    expect(pickerKey(CLOSED, 'Enter', CHOICES, ['en'])).toMatchObject({ selected: ['en'], handled: false });
  });

  it('typing filters and makes the best match active', () => {
    const s = pickerInput('ger', filterChoices(CHOICES, 'ger'));
    expect(s).toEqual({ query: 'ger', open: true, active: 0, navigated: false });
    expect(pickerInput('zzz', []).active).toBe(-1);
  });

  it('toggleValue adds at the end and removes wherever it is', () => {
    expect(toggleValue(['a', 'b'], 'c')).toEqual(['a', 'b', 'c']);
    expect(toggleValue(['a', 'b', 'c'], 'b')).toEqual(['a', 'c']);
  });
});
