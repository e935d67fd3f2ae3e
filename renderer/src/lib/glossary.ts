// One "Glossary" field for one idea: the glossary is sent as the enhancement's vocabulary
// (`etVocabulary`, joined with the glossary in main: engine/recipes/glossary.ts, glossaryParams),
// so the template's own vocabulary field is not offered beside it. A vocabulary already saved in a
// folder's parameters is moved into its glossary when the folder is edited, each term once.
import type { ParamSpecView, Params } from '../../../preload/contract.js';

export const VOCABULARY_PARAM = 'etVocabulary';

/** The specs the form shows: the vocabulary left out unless a value is still held there (shown, not hidden). */
export function formSpecs(specs: readonly ParamSpecView[], params: Params | undefined): ParamSpecView[] {
  const held = params?.[VOCABULARY_PARAM];
  const has = Array.isArray(held) ? held.length > 0 : typeof held === 'string' && held.trim() !== '';
  return specs.filter((s) => s.name !== VOCABULARY_PARAM || has);
}

/** The parameters without the vocabulary, and the glossary with its terms added (each once, letter case ignored). */
export function vocabularyIntoGlossary(
  params: Params | undefined,
  glossary: readonly string[] | undefined,
): { params: Params; glossary: string[] } {
  const { [VOCABULARY_PARAM]: held, ...rest } = params ?? {};
  const terms = (Array.isArray(held) ? held : typeof held === 'string' ? held.split(',') : [])
    .map((t) => t.trim())
    .filter(Boolean);
  const out = [...(glossary ?? [])];
  for (const t of terms) if (!out.some((g) => g.toLowerCase() === t.toLowerCase())) out.push(t);
  return { params: rest, glossary: out };
}
