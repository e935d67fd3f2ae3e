// The state logic of a searchable multi-select combobox (WAI-ARIA APG combobox with a listbox):
// typing filters, arrows move the active option, Enter (or Space once the arrows were used)
// toggles it, Backspace in an empty field removes the last chip, Escape closes. Pure, so the
// keyboard behaviour is tested without a browser.

export interface Choice {
  value: string;
  label: string;
}

export interface PickerState {
  query: string;
  open: boolean;
  /** Index in the filtered list; -1 when no option is active. */
  active: number;
  /** The active option was reached with the arrows (then Space toggles rather than types). */
  navigated: boolean;
}

export const CLOSED: PickerState = { query: '', open: false, active: -1, navigated: false };

const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Options whose label or value match the query, accent- and case-blind; starts of words first. */
export function filterChoices(choices: readonly Choice[], query: string): Choice[] {
  const q = fold(query.trim());
  if (q === '') return [...choices];
  const scored: Array<[number, Choice]> = [];
  for (const c of choices) {
    const label = fold(c.label);
    const value = fold(c.value);
    const score =
      value === q
        ? 0
        : label.startsWith(q)
          ? 1
          : label.split(/[\s(-]+/).some((w) => w.startsWith(q))
            ? 2
            : label.includes(q)
              ? 3
              : -1;
    if (score >= 0) scored.push([score, c]);
  }
  return scored.sort((a, b) => a[0] - b[0]).map(([, c]) => c);
}

export function toggleValue(selected: readonly string[], value: string): string[] {
  return selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value];
}

export interface KeyOutcome {
  state: PickerState;
  selected: string[];
  /** The key was used by the picker (the caller prevents its default action). */
  handled: boolean;
}

/** One key press in the field. `visible` is the filtered list the listbox shows. */
export function pickerKey(
  state: PickerState,
  key: string,
  visible: readonly Choice[],
  selected: readonly string[],
): KeyOutcome {
  const same = { state, selected: [...selected], handled: false };
  const move = (active: number): KeyOutcome => ({
    state: { ...state, open: true, active, navigated: true },
    selected: [...selected],
    handled: true,
  });
  const last = visible.length - 1;
  switch (key) {
    case 'ArrowDown':
      if (!state.open) return move(state.active >= 0 ? state.active : 0);
      return move(last < 0 ? -1 : Math.min(last, state.active + 1));
    case 'ArrowUp':
      return move(last < 0 ? -1 : state.active <= 0 ? 0 : state.active - 1);
    case 'Home':
      return state.open && last >= 0 ? move(0) : same;
    case 'End':
      return state.open && last >= 0 ? move(last) : same;
    case 'Enter':
    case ' ': {
      if (key === ' ' && !state.navigated) return same;
      const choice = state.open ? visible[state.active] : undefined;
      if (!choice) return key === 'Enter' && state.open ? { ...same, handled: true } : same;
      return { state, selected: toggleValue(selected, choice.value), handled: true };
    }
    case 'Backspace':
      if (state.query !== '' || selected.length === 0) return same;
      return { state, selected: selected.slice(0, -1), handled: true };
    case 'Escape':
      if (!state.open && state.query === '') return same;
      return { state: CLOSED, selected: [...selected], handled: true };
    default:
      return same;
  }
}

/** The field's text changed: filter, open, and make the best match active. */
export function pickerInput(query: string, visibleAfter: readonly Choice[]): PickerState {
  return { query, open: true, active: visibleAfter.length > 0 ? 0 : -1, navigated: false };
}
