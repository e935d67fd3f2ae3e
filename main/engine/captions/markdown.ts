// Markdown report of the audio-intelligence sections (§6.3: summary, sentimentAnalysis,
// askAnything). Pure. Returns null when the export has none of them: an empty report beside
// every transcript would be noise, and the writer skips a format that renders to null.
import type { AskAnythingEntry, ExportResult, SentimentCounts } from '../../service/types.js';
import type { Params } from '../settings.js';

export interface MarkdownContext {
  /** Source file name, the report's title. */
  sourceName: string;
  /** promptId → the question asked (from the job's `askN` / `askNId` parameters). */
  questions?: Readonly<Record<string, string>>;
}

/** The questions a job asked, by the prompt id the export will carry (`askNId`, else the slot). */
export function questionsFromParams(params: Params): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const slot = /^ask(\d+)$/.exec(key)?.[1];
    if (slot === undefined || typeof value !== 'string' || value.trim() === '') continue;
    const id = params[`ask${slot}Id`];
    out[typeof id === 'string' && id !== '' ? id : slot] = value.trim();
  }
  return out;
}

/** Keeps names and questions literal: these characters would otherwise format or link. */
const escapeInline = (s: string): string => s.replace(/[\\`*_[\]<>|]/g, '\\$&').replace(/^#/, '\\#');

function fenced(body: string, lang: string): string {
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${body}\n${fence}`;
}

const isScalar = (v: unknown): v is string | number | boolean | null =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v);
const scalarText = (v: string | number | boolean | null): string => (v === null ? '—' : escapeInline(String(v)));

/** A JSON-string answer (a response format was requested) as a list when flat, else a code block. */
export function renderAnswer(content: string): string {
  const trimmed = content.trim();
  if (/^[{[]/.test(trimmed)) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (Array.isArray(value) && value.length > 0 && value.every(isScalar)) {
        return value.map((v) => `- ${scalarText(v)}`).join('\n');
      }
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const entries = Object.entries(value);
        if (entries.length > 0 && entries.every(([, v]) => isScalar(v))) {
          return entries.map(([k, v]) => `- **${escapeInline(k)}**: ${scalarText(v as never)}`).join('\n');
        }
      }
      return fenced(JSON.stringify(value, null, 2), 'json');
    } catch {
      /* not JSON after all: shown as written */
    }
  }
  return trimmed === '' ? '_(no answer)_' : trimmed;
}

function sentimentCounts(c: SentimentCounts): string[] {
  return [
    '| Sentiment | Segments |',
    '|---|---:|',
    `| Positive | ${c.positiveCount} |`,
    `| Neutral | ${c.neutralCount} |`,
    `| Negative | ${c.negativeCount} |`,
  ];
}

const score = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : '—');

function sentimentSection(s: NonNullable<ExportResult['sentimentAnalysis']>): string[] {
  const sum = s.summary;
  const out = ['## Sentiment', ''];
  if (!sum) return [...out, `${s.segments?.length ?? 0} segments analysed.`];
  out.push(`Overall: **${sum.sentiment}**, average score ${score(sum.averageScore)} (−1 negative … 1 positive).`);
  out.push('', ...sentimentCounts(sum));
  for (const ch of sum.channels ?? []) {
    out.push('', `### Channel ${ch.channel}`, '');
    out.push(`Overall: **${ch.sentiment}**, average score ${score(ch.averageScore)}.`, '', ...sentimentCounts(ch));
  }
  return out;
}

export function renderMarkdown(result: ExportResult, ctx: MarkdownContext): string | null {
  const summary = typeof result.summary?.content === 'string' ? result.summary.content.trim() : null;
  const sentiment = result.sentimentAnalysis ?? null;
  const asks = Object.values(result.askAnything ?? {}).filter(
    (a): a is AskAnythingEntry => typeof a === 'object' && a !== null && typeof a.content === 'string',
  );
  if (summary === null && !sentiment && asks.length === 0) return null;

  const out = [`# ${escapeInline(ctx.sourceName)}`];
  if (summary !== null) out.push('', '## Summary', '', summary === '' ? '_(empty)_' : summary);
  if (sentiment) out.push('', ...sentimentSection(sentiment));
  if (asks.length > 0) {
    out.push('', '## Questions');
    for (const a of asks) {
      const question = ctx.questions?.[a.promptId];
      out.push('', `### ${question ? escapeInline(question) : `Prompt ${escapeInline(a.promptId)}`}`, '');
      out.push(renderAnswer(a.content));
    }
  }
  return `${out.join('\n')}\n`;
}
