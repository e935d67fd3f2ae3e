// The sandbox's answer to a prompt with a response format (§11.2 `ask<N>Format`): JSON valid
// against the schema, made from the simulated transcript, so that whatever asks for quotes gets
// real runs of its words (a client can find them and take their times). Deterministic per stream:
// the same seed and transcript give the same answer.
//
// Reading of the schema, by property name: a string named like a quote (`quote`, `firstWords`,
// `excerpt`, `verbatim`) is copied from the transcript; an array of objects holding one is spread
// over the recording, its first item at the first sentence; an array of strings gets distinct
// words of the transcript; other strings a few words of the item's sentence. Numbers, booleans and
// enums take a value the schema allows.
import { rng, type Sentence } from './transcript.js';

type Schema = Record<string, unknown>;

const obj = (v: unknown): Schema => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : {});
const QUOTE_NAME = /quote|firstwords|excerpt|verbatim/i;

const typeOf = (s: Schema): string | undefined => (Array.isArray(s.type) ? String(s.type[0]) : (s.type as string));

/** True when the schema (an object, or an array of objects) has a quote-like string in it. */
function quotes(s: Schema): boolean {
  if (typeOf(s) === 'array') return quotes(obj(s.items));
  return Object.keys(obj(s.properties)).some((k) => QUOTE_NAME.test(k));
}

export interface AnswerSource {
  seed: string;
  /** The transcript's sentences, the simulated notice (the first) included. */
  sentences: readonly Sentence[];
}

export function answerFromSchema(specText: string, source: AnswerSource): unknown {
  const random = rng(`${source.seed}:${specText}`);
  // The notice sentence says the transcript is simulated: real content starts after it.
  const body = source.sentences.length > 1 ? source.sentences.slice(1) : source.sentences;
  const sentenceWords = (i: number): string[] =>
    (body[i]?.words ?? []).map((w) => w.word.trim()).filter((w) => w !== '');
  const vocabulary = [
    ...new Set(
      body
        .flatMap((_, i) => sentenceWords(i).map((w) => w.replace(/[^\p{L}\p{N}'’-]/gu, '')))
        .filter((w) => w.length >= 5),
    ),
  ];
  let vocabAt = 0;

  const clampLength = (text: string, s: Schema): string => {
    const max = typeof s.maxLength === 'number' ? s.maxLength : undefined;
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    const cut = max !== undefined ? text.slice(0, max) : text;
    return cut.length >= min ? cut : cut.padEnd(min, '.');
  };

  const stringFor = (name: string, s: Schema, sentence: number): string => {
    if (Array.isArray(s.enum) && s.enum.length > 0) return String(s.enum[Math.floor(random() * s.enum.length)]);
    const words = sentenceWords(sentence);
    if (words.length === 0) return clampLength('simulated', s);
    if (/firstwords/i.test(name)) return clampLength(words.slice(0, Math.min(7, words.length)).join(' '), s);
    if (QUOTE_NAME.test(name)) return clampLength(words.join(' '), s);
    const bare = words.slice(0, 4).map((w) => w.replace(/[.,!?;:]+$/u, ''));
    return clampLength(bare.join(' '), s);
  };

  const count = (s: Schema, spread: boolean): number => {
    const min = typeof s.minItems === 'number' ? s.minItems : 0;
    const max = typeof s.maxItems === 'number' ? s.maxItems : Math.max(min, 8);
    const available = spread ? Math.max(1, body.length) : Math.max(1, vocabulary.length);
    const wish = Math.min(available, 3 + Math.floor(random() * 4));
    return Math.max(min, Math.min(max, wish));
  };

  const value = (s: Schema, name: string, sentence: number): unknown => {
    if (s.const !== undefined) return s.const;
    switch (typeOf(s)) {
      case 'object':
        return Object.fromEntries(Object.entries(obj(s.properties)).map(([k, v]) => [k, value(obj(v), k, sentence)]));
      case 'array': {
        const items = obj(s.items);
        const spread = quotes(items) || typeOf(items) === 'object';
        const n = count(s, spread);
        return Array.from({ length: n }, (_, i) => {
          if (spread) return value(items, name, body.length === 0 ? 0 : Math.floor((i * body.length) / n));
          if (typeOf(items) === 'string' && !Array.isArray(items.enum) && vocabulary.length > 0) {
            return clampLength(vocabulary[vocabAt++ % vocabulary.length]!, items);
          }
          return value(items, name, sentence);
        });
      }
      case 'integer':
      case 'number': {
        const lo = typeof s.minimum === 'number' ? s.minimum : 0;
        const hi = typeof s.maximum === 'number' ? s.maximum : lo + 10;
        if (typeOf(s) === 'number') return lo + random() * (hi - lo);
        const l = Math.ceil(lo);
        return l + Math.floor(random() * (Math.floor(hi) - l + 1));
      }
      case 'boolean':
        return random() < 0.5;
      case 'null':
        return null;
      default:
        if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
        if (Array.isArray(s.anyOf) && s.anyOf.length > 0) return value(obj(s.anyOf[0]), name, sentence);
        return stringFor(name, s, sentence);
    }
  };
  return value(obj(JSON.parse(specText)), '', 0);
}
