// The recipe answers in an export's `askAnything` (§6.3: each `content` is JSON text when a format
// was asked for), read by the ids recipes.ts gives them, plus the summary. Pure. Each answer is read
// against the format Sluice sent for it (the job's `ask<N>Format`; a job without one, the recipe's):
// one that is not JSON, or breaks its format, is named in `problems`; of a broken one only what
// holds the format's required fields is used (service/json-schema.ts `checkAnswer`). A missing
// answer reads as absent, never as an error: a result from an older job must still render.
import { checkAnswer } from '../../service/json-schema.js';
import type { ExportResult } from '../../service/types.js';
import type { ChapterIn } from './align.js';
import { ANSWER_IDS, RECIPES } from './recipes.js';

export interface ActionItem {
  task: string;
  owner: string;
  due: string;
}

export interface RecipeAnswers {
  title?: string;
  summary?: string;
  chapters?: ChapterIn[];
  quotes?: string[];
  keywords?: string[];
  decisions?: string[];
  actions?: ActionItem[];
  /** Answers that were not JSON or broke their format, one sentence each. */
  problems?: string[];
}

/** Answer key → the format's JSON text, as a job sent them (`ask<N>Id`, `ask<N>Format`). */
export type AnswerFormats = Readonly<Record<string, string>>;

/** The formats a job's parameters sent, by the key each answer comes back under. */
export function sentFormats(params: Readonly<Record<string, unknown>>): AnswerFormats {
  const out: Record<string, string> = {};
  for (const n of [0, 1, 2]) {
    const format = params[`ask${n}Format`];
    const id = params[`ask${n}Id`];
    if (typeof format === 'string' && format.trim() !== '')
      out[typeof id === 'string' && id !== '' ? id : String(n)] = format;
  }
  return out;
}

/** The format a built-in recipe sends for an answer key. */
function recipeFormat(id: string): string | undefined {
  for (const r of Object.values(RECIPES)) {
    const p = r.prompts.find((x) => x.id === id);
    if (p) return JSON.stringify(p.format);
  }
  return undefined;
}

/** `sluice-chapters` → "chapters": how a person knows the answer. */
const labelOf = (id: string): string => id.replace(/^sluice-/, '');

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

interface Read {
  value?: Record<string, unknown>;
  problem?: string;
}

function answer(result: ExportResult, id: string, formats: AnswerFormats): Read {
  const entries = isRecord(result.askAnything) ? Object.values(result.askAnything) : [];
  const entry = entries.find((e) => isRecord(e) && e.promptId === id) ?? (result.askAnything ?? {})[id];
  if (!isRecord(entry) || typeof entry.content !== 'string') return {};
  const name = labelOf(id);
  let parsed: unknown;
  try {
    parsed = JSON.parse(entry.content);
  } catch {
    return { problem: `The ${name} answer is not JSON, so it was not used.` };
  }
  const format = formats[id] ?? recipeFormat(id);
  const check = format === undefined ? { errors: [], usable: parsed } : checkAnswer(format, parsed);
  const value = isRecord(check.usable) ? check.usable : undefined;
  if (check.errors.length === 0) {
    return value ? { value } : { problem: `The ${name} answer is not a JSON object, so it was not used.` };
  }
  const shown =
    check.errors.slice(0, 3).join('; ') + (check.errors.length > 3 ? `; and ${check.errors.length - 3} more` : '');
  return {
    ...(value ? { value } : {}),
    problem: `The ${name} answer did not match its schema: ${shown}; ${value ? 'the parts that did were used' : 'it was not used'}.`,
  };
}

/** `list` mapped item by item, dropping items `pick` cannot read; undefined when not a list. */
function listOf<T>(list: unknown, pick: (item: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((item) => {
    const v = pick(item);
    return v === undefined ? [] : [v];
  });
}

const field = (name: string) => (item: unknown) => (isRecord(item) ? text(item[name]) : text(item));

export function readAnswers(result: ExportResult, formats: AnswerFormats = {}): RecipeAnswers {
  const out: RecipeAnswers = {};
  const summary = text(result.summary?.content);
  if (summary) out.summary = summary;
  const problems: string[] = [];
  const read = (id: string): Record<string, unknown> | undefined => {
    const r = answer(result, id, formats);
    if (r.problem) problems.push(r.problem);
    return r.value;
  };
  const ch = read(ANSWER_IDS.chapters);
  const title = text(ch?.title);
  if (title) out.title = title;
  const chapters = listOf(ch?.chapters, (item) => {
    if (!isRecord(item)) return undefined;
    const firstWords = text(item.firstWords);
    return firstWords ? { title: text(item.title) ?? '', firstWords } : undefined;
  });
  if (chapters) out.chapters = chapters;
  const quotes = listOf(read(ANSWER_IDS.quotes)?.quotes, field('quote'));
  if (quotes) out.quotes = quotes;
  const keywords = listOf(read(ANSWER_IDS.keywords)?.keywords, text);
  if (keywords) out.keywords = keywords;
  const decisions = listOf(read(ANSWER_IDS.decisions)?.decisions, field('decision'));
  if (decisions) out.decisions = decisions;
  const actions = listOf(read(ANSWER_IDS.actions)?.actions, (item) => {
    if (!isRecord(item)) return undefined;
    const task = text(item.task);
    return task ? { task, owner: text(item.owner) ?? 'unassigned', due: text(item.due) ?? '' } : undefined;
  });
  if (actions) out.actions = actions;
  if (problems.length > 0) out.problems = problems;
  return out;
}
