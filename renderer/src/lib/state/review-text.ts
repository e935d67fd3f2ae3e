// The transcript as plain text, for the clipboard: whole or a range of words, with or without
// each paragraph's timestamp and speaker.
import type { TranscriptView } from '../../../../preload/contract.js';
import { formatTimestamp } from '../../../../common/timestamp.js';

export { formatTimestamp };

export interface CopyOptions {
  timestamps: boolean;
  speakers: boolean;
}

export function speakerName(view: Pick<TranscriptView, 'speakers'>, id: string | undefined): string {
  if (id === undefined) return '';
  return view.speakers.find((s) => s.id === id)?.name ?? `Speaker ${id}`;
}

/** Paragraphs separated by a blank line; words [from, to) only when a range is given. */
export function transcriptText(
  view: Pick<TranscriptView, 'words' | 'paragraphs' | 'speakers'>,
  options: CopyOptions,
  range?: { from: number; to: number },
): string {
  const from = range?.from ?? 0;
  const to = range?.to ?? view.words.length;
  const lastEnd = view.words[view.words.length - 1]?.end ?? 0;
  const hours = lastEnd >= 3_600_000;
  const blocks: string[] = [];
  for (const p of view.paragraphs) {
    const first = Math.max(p.first, from);
    const end = Math.min(p.end, to);
    if (first >= end) continue;
    const text = view.words
      .slice(first, end)
      .map((w) => w.text)
      .join(' ');
    const head: string[] = [];
    if (options.timestamps) head.push(`[${formatTimestamp(view.words[first]!.start, hours)}]`);
    if (options.speakers && p.speaker !== undefined) head.push(`${speakerName(view, p.speaker)}:`);
    blocks.push(head.length ? `${head.join(' ')} ${text}` : text);
  }
  return blocks.join('\n\n');
}
