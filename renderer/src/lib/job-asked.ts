// What a job asked the service for, in an editor's words ("Glossary: 4 terms", "Language: German"),
// read from the parameters it was sent with. The parameters themselves stay behind the detail's
// "Service details" for support. Pure.
import type { Params } from '../../../preload/contract.js';

export interface AskedLine {
  label: string;
  value: string;
}

const NAMES = new Intl.DisplayNames(['en'], { type: 'language' });
function languageName(code: string): string {
  try {
    return NAMES.of(code) ?? code;
  } catch {
    return code;
  }
}

const list = (v: Params[string] | undefined): string[] =>
  Array.isArray(v) ? v : typeof v === 'string' && v.trim() ? v.split(',').map((x) => x.trim()) : [];
const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * The lines after the template's: the recipe, the glossary, the language, speakers, and a summary
 * or questions asked without a recipe. A line is left out when the parameter was not sent, except
 * the language (the service detects it then: worth saying).
 */
export function askedLines(params: Params | undefined, recipe: string | undefined): AskedLine[] {
  const p = params ?? {};
  const out: AskedLine[] = [];
  if (recipe) out.push({ label: 'Recipe', value: recipe });
  const terms = list(p.etVocabulary).filter(Boolean);
  if (terms.length > 0) out.push({ label: 'Glossary', value: plural(terms.length, 'term', 'terms') });
  const languages = list(p.language).filter(Boolean);
  out.push({
    label: languages.length > 1 ? 'Languages' : 'Language',
    value: languages.length ? languages.map(languageName).join(', ') : 'Detected by the service',
  });
  if (typeof p.speakersNumber === 'number') {
    out.push({ label: 'Speakers', value: plural(p.speakersNumber, 'speaker', 'speakers') });
  } else if (typeof p.minSpeakersNumber === 'number' || typeof p.maxSpeakersNumber === 'number') {
    out.push({ label: 'Speakers', value: `${p.minSpeakersNumber ?? 1} to ${p.maxSpeakersNumber ?? 'any number'}` });
  }
  if (!recipe) {
    if (p.summary === true) out.push({ label: 'Summary', value: 'Asked for' });
    const questions = Object.entries(p).filter(([k, v]) => /^ask\d+$/.test(k) && typeof v === 'string' && v.trim());
    if (questions.length > 0) {
      out.push({ label: 'Questions', value: plural(questions.length, 'question', 'questions') + ' of its own' });
    }
  }
  return out;
}
