// A list of selects as the app shows it: each select in the list's order, placed (its words in the
// clip's transcript now, source timecode, length on the timeline) or said to be missing and why.
import path from 'node:path';
import type { SelectListView, SelectView, SpacerView } from '../../preload/contract.js';
import { firstWordsLabel, selectWordRange, type Select } from '../engine/selects/selects.js';
import { isSpacer, rowsOf } from '../engine/selects/rows.js';
import { sourceTimecode, timelineLength } from '../engine/selects/string-out.js';
import { frameToMs } from '../../common/frames.js';
import { rateLabel } from '../engine/timecode/rates.js';
import type { OpenList } from '../runtime/selects.js';

/** An empty list by that name: what the review shows before its first select is picked. */
export const emptyListView = (name: string): SelectListView => ({
  name: name.trim(),
  revision: 0,
  selects: [],
  totalMs: 0,
  rate: '25',
});

export function selectListView(o: OpenList, fileNameOf: (jobId: string) => string | undefined): SelectListView {
  const so = o.stringOut;
  const bites = new Map(so.bites.map((b) => [b.selectId, b]));
  const missing = new Map(so.missing.map((m) => [m.jobId, m]));
  const ms = (frames: number): number => Math.round(frameToMs(frames, so.rate));
  const base = (s: Select): Omit<SelectView, 'fileName' | 'label' | 'text' | 'durationMs'> => ({
    id: s.id,
    jobId: s.jobId,
    colour: s.colour,
    note: s.note,
    fromMs: s.fromMs,
    toMs: s.toMs,
  });
  const selects = o.list.selects.map((s): SelectView => {
    const b = bites.get(s.id);
    const t = o.transcripts.get(s.jobId);
    if (b && t) {
      return {
        ...base(s),
        fileName: b.clip.fileName,
        label: b.label,
        text: b.text,
        ...(b.speaker === undefined ? {} : { speaker: b.speaker }),
        words: selectWordRange(t.words, s),
        sourceIn: sourceTimecode(b.clip, b.wordsIn),
        sourceOut: sourceTimecode(b.clip, b.wordsOut),
        durationMs: ms(b.recordOut - b.recordIn),
        recordInMs: ms(b.recordIn),
      };
    }
    const m = missing.get(s.jobId);
    const name = fileNameOf(s.jobId) ?? (m?.path ? path.basename(m.path) : undefined);
    return {
      ...base(s),
      fileName: name ?? 'a file Sluice no longer knows',
      label: s.label ?? firstWordsLabel(s.text),
      text: s.text,
      durationMs: s.toMs - s.fromMs,
      missing: m
        ? `${m.reason}: put the file back, or process it again and pick this select anew.`
        : 'Sluice no longer knows this clip (its job was deleted): process it again and pick this select anew.',
    };
  });
  const placed = new Map(so.spacers.map((p) => [p.id, p]));
  const spacers = rowsOf(o.list).flatMap((r, index): SpacerView[] => {
    const p = isSpacer(r) ? placed.get(r.id) : undefined;
    if (!isSpacer(r) || !p) return [];
    return [
      {
        id: r.id,
        kind: r.kind,
        ...(r.text === undefined ? {} : { text: r.text }),
        ms: r.ms,
        durationMs: ms(p.recordOut - p.recordIn),
        recordInMs: ms(p.recordIn),
        index,
      },
    ];
  });
  return {
    name: o.list.name,
    revision: o.list.revision,
    selects,
    ...(spacers.length > 0 ? { spacers } : {}),
    totalMs: ms(timelineLength(so)),
    rate: rateLabel(so.rate),
  };
}
