// Show notes in Markdown: a title suggestion, the summary, chapters with times, pull quotes with
// times and speakers, keywords; for a meeting, its decisions and action items. Pure. null when the
// export holds none of these (no recipe was used).
import { youtubeTime } from './chapter-formats.js';
import type { Outline } from './outline.js';

/** Keeps service-written text literal: these characters would otherwise format or link. */
const inline = (s: string): string =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>|]/g, '\\$&')
    .replace(/^#/, '\\#');

export function renderShownotes(o: Outline, sourceName: string): string | null {
  const has =
    o.summary !== undefined ||
    o.title !== undefined ||
    o.chapters.length > 0 ||
    o.quotes.length > 0 ||
    (o.keywords?.length ?? 0) > 0 ||
    o.decisions !== undefined ||
    o.actions !== undefined;
  if (!has) return null;
  const out = [`# ${inline(o.title ?? sourceName)}`];
  if (o.title) out.push('', `_${inline(sourceName)}_`);
  if (o.summary) out.push('', '## Summary', '', o.summary.trim());
  if (o.chapters.length > 0) {
    out.push('', '## Chapters', '', ...o.chapters.map((c) => `- \`${youtubeTime(c.startMs)}\` ${inline(c.title)}`));
  }
  if (o.quotes.length > 0) {
    out.push('', '## Pull quotes');
    for (const q of o.quotes) {
      const who = q.speaker ? `${q.speaker}, ` : '';
      out.push('', `> ${inline(q.text)}`, `>`, `> — ${who}\`${youtubeTime(q.startMs)}\``);
    }
  }
  if (o.keywords && o.keywords.length > 0) out.push('', '## Keywords', '', o.keywords.map(inline).join(', '));
  if (o.decisions) {
    out.push('', '## Decisions', '');
    out.push(...(o.decisions.length ? o.decisions.map((d) => `- ${inline(d)}`) : ['_None recorded._']));
  }
  if (o.actions) {
    out.push('', '## Action items', '');
    if (o.actions.length === 0) out.push('_None recorded._');
    else {
      out.push('| Task | Owner | Due |', '|---|---|---|');
      for (const a of o.actions) out.push(`| ${inline(a.task)} | ${inline(a.owner)} | ${inline(a.due) || '—'} |`);
    }
  }
  if (o.notes.length > 0) out.push('', '---', '', ...o.notes.map((n) => `_${inline(n)}_`));
  return `${out.join('\n')}\n`;
}
