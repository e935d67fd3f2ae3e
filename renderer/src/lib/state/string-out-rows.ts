// A list's rows as the string-out screen shows them: its bites (numbered among themselves) with its
// gaps and title cards at their places among all the rows (SpacerView.index). Pure.
import type { SelectListView, SelectView, SpacerView } from '../../../../preload/contract.js';

export type StringOutRowView =
  | { kind: 'select'; id: string; select: SelectView; number: number }
  | { kind: 'spacer'; id: string; spacer: SpacerView };

export function rowsOfView(view: Pick<SelectListView, 'selects' | 'spacers'>): StringOutRowView[] {
  const spacers = [...(view.spacers ?? [])].sort((a, b) => a.index - b.index);
  const rows: StringOutRowView[] = [];
  let next = 0;
  const total = view.selects.length + spacers.length;
  for (let i = 0; i < total; i++) {
    const sp = spacers[0];
    if (sp && (sp.index <= i || next >= view.selects.length)) {
      rows.push({ kind: 'spacer', id: sp.id, spacer: sp });
      spacers.shift();
    } else {
      const s = view.selects[next++]!;
      rows.push({ kind: 'select', id: s.id, select: s, number: next });
    }
  }
  return rows;
}

/** A length in seconds as the screen says it: `2 s`, `1.5 s`. */
export const secondsText = (ms: number): string => `${Math.round(ms / 10) / 100} s`;
