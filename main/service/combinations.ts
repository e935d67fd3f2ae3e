// What the service refuses in a combination of parameters (§11.3, §11.2), checked in one place for
// both sides: the sandbox refuses it with the contract's status, and Sluice refuses the same before
// sending (engine/params.ts), so a job the service would refuse is never uploaded and billed.
// Each side reads its own form (the sandbox a processor's properties, Sluice the parameters) into a
// `Combination` and words the refusals its own way.
//
// Note (answer keys): every answer comes back under its key in `askAnything` (§6.3; `ask<N>Id`,
// default the slot's index), so two active slots with one key would leave one answer. GAP: the
// contract does not say what the service does then. CHOICE: refused, as a properties error.
import { responseFormatRefusal } from './json-schema.js';

export interface AskSlot {
  /** The slot's index, 0–2. */
  slot: number;
  /** Its answer key as the service will use it: `ask<N>Id`, or the index as text. */
  key: string;
  /** The slot asks something (its prompt has content). */
  active: boolean;
  /** `ask<N>Format`, when given. */
  format?: string;
}

export interface Combination {
  diarizes: boolean;
  splitStereo: boolean;
  minSpeakers?: number;
  maxSpeakers?: number;
  asks: readonly AskSlot[];
}

export interface Refusal {
  /** `patch`: 400 STREAM_CONFIGURATION_BAD_PATCH; `properties`: 400 PROCESSOR_PROPERTIES_VALIDATION_ERROR. */
  kind: 'patch' | 'properties';
  /** The parameter refused, as a user names it. */
  param: string;
  /** What is wrong with it, without its name. */
  detail: string;
}

/** Everything refused in `c`, in the order the service would meet it; empty when nothing is. */
export function combinationRefusals(c: Combination): Refusal[] {
  const out: Refusal[] = [];
  if (c.diarizes && c.splitStereo) {
    out.push({ kind: 'patch', param: 'splitStereo', detail: 'cannot be used with speaker diarization' });
  }
  if (c.minSpeakers !== undefined && c.maxSpeakers !== undefined && c.minSpeakers > c.maxSpeakers) {
    out.push({ kind: 'properties', param: 'minSpeakersNumber', detail: 'must not exceed maxSpeakersNumber' });
  }
  for (const a of c.asks) {
    if (a.format === undefined) continue;
    const why = responseFormatRefusal(a.format);
    if (why) out.push({ kind: 'properties', param: `ask${a.slot}Format`, detail: why });
  }
  const seen = new Map<string, number>();
  for (const a of c.asks.filter((s) => s.active)) {
    const first = seen.get(a.key);
    if (first === undefined) seen.set(a.key, a.slot);
    else {
      out.push({
        kind: 'properties',
        param: `ask${a.slot}Id`,
        detail: `the answer key "${a.key}" is also question ${first + 1}'s (ask${first}); give each question its own key`,
      });
    }
  }
  return out;
}
