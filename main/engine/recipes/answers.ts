// The recipe answers in an export's `askAnything` (§6.3: each `content` is JSON text when a format
// was asked for), read by the ids recipes.ts gives them, plus the summary. Pure and tolerant: an
// answer that is missing, not JSON or not of the asked shape reads as absent, never as an error,
// because a result from an older job or another tool must still render what it can.
import type { ExportResult } from '../../service/types.js';
import type { ChapterIn } from './align.js';
import { ANSWER_IDS } from './recipes.js';

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
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

function answer(result: ExportResult, id: string): Record<string, unknown> | undefined {
  const entries = isRecord(result.askAnything) ? Object.values(result.askAnything) : [];
  const entry = entries.find((e) => isRecord(e) && e.promptId === id) ?? (result.askAnything ?? {})[id];
  if (!isRecord(entry) || typeof entry.content !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(entry.content);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
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

export function readAnswers(result: ExportResult): RecipeAnswers {
  const out: RecipeAnswers = {};
  const summary = text(result.summary?.content);
  if (summary) out.summary = summary;
  const ch = answer(result, ANSWER_IDS.chapters);
  const title = text(ch?.title);
  if (title) out.title = title;
  const chapters = listOf(ch?.chapters, (item) => {
    if (!isRecord(item)) return undefined;
    const firstWords = text(item.firstWords);
    return firstWords ? { title: text(item.title) ?? '', firstWords } : undefined;
  });
  if (chapters) out.chapters = chapters;
  const quotes = listOf(answer(result, ANSWER_IDS.quotes)?.quotes, field('quote'));
  if (quotes) out.quotes = quotes;
  const keywords = listOf(answer(result, ANSWER_IDS.keywords)?.keywords, text);
  if (keywords) out.keywords = keywords;
  const decisions = listOf(answer(result, ANSWER_IDS.decisions)?.decisions, field('decision'));
  if (decisions) out.decisions = decisions;
  const actions = listOf(answer(result, ANSWER_IDS.actions)?.actions, (item) => {
    if (!isRecord(item)) return undefined;
    const task = text(item.task);
    return task ? { task, owner: text(item.owner) ?? 'unassigned', due: text(item.due) ?? '' } : undefined;
  });
  if (actions) out.actions = actions;
  return out;
}
