// The prompt slots' answer keys (§11.2 `ask<N>Id`, default the slot's index): each answer comes back
// under its key in `askAnything` (§6.3), so two active slots with one key would leave one answer.
// GAP: the contract does not say what the service does then. CHOICE: refused (400
// PROCESSOR_PROPERTIES_VALIDATION_ERROR in the sandbox); Sluice refuses the same before sending.

export interface AskSlot {
  /** The slot's index, 0–2. */
  slot: number;
  /** Its answer key as the service will use it: `ask<N>Id`, or the index as text. */
  key: string;
}

/** Why two slots' answers would come back under one key, or undefined. */
export function answerKeyClash(slots: readonly AskSlot[]): string | undefined {
  const seen = new Map<string, number>();
  for (const s of slots) {
    const first = seen.get(s.key);
    if (first !== undefined) {
      return `ask${s.slot}Id: the answer key "${s.key}" is also question ${first + 1}'s (ask${first}); give each question its own key.`;
    }
    seen.set(s.key, s.slot);
  }
  return undefined;
}
