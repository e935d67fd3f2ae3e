// Card rules carried out on a watch folder's file: the engine names the candidates that would win
// over it (engine/card-rules.ts), this looks whether one of them is really there.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { cardRuleFor, cardVerdict, type TrackChoice } from '../../engine/card-rules.js';

export interface CardSkip {
  /** The sentence that says why, naming the file that won. */
  reason: string;
  rule: string;
  /** Relative to the folder; null when the rule skips whatever is beside it. */
  winner: string | null;
}

/** Why a card rule skips this file (naming the file that won), or undefined when it is taken. */
export async function cardSkip(file: string, root: string, tracks: TrackChoice): Promise<CardSkip | undefined> {
  const rel = path.relative(root, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const applied = cardRuleFor(rel, tracks);
  if (!applied) return undefined;
  let found: string | null = null;
  for (const c of applied.candidates) {
    const st = await stat(path.join(root, c)).catch(() => undefined);
    if (st?.isFile()) {
      found = c;
      break;
    }
  }
  const verdict = cardVerdict(path.basename(file), applied, found);
  return verdict.skip ? { reason: verdict.reason, rule: verdict.rule, winner: verdict.winner } : undefined;
}
