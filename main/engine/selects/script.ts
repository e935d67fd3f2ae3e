// A string-out as a paper-edit script: what a producer reads and marks up. Each bite in order with
// its clip, speaker, source timecode in and out (the clip's own), its record in and the running
// time, and its words; between them, a gap as "— gap 2 s —" and a title card as "TITLE: text (3 s)".
// The same rows make the `.txt` here and the `.docx` (adapters). Pure.
import { rateLabel } from '../timecode/rates.js';
import { frameToMs } from '../../../common/frames.js';
import {
  recordTimecode,
  sourceTimecode,
  timelineItems,
  timelineLength,
  type PlacedSpacer,
  type StringOut,
} from './string-out.js';

export interface ScriptRow {
  number: number;
  label: string;
  clip: string;
  speaker?: string;
  sourceIn: string;
  sourceOut: string;
  recordIn: string;
  /** The running time at the bite's end, from the timeline's start (`00:01:12:04`). */
  running: string;
  note: string;
  text: string;
}

/** A gap or title card between bites. */
export interface ScriptSpacerRow {
  spacer: true;
  /** `— gap 2 s —` or `TITLE: Part two (3 s)`. */
  line: string;
  recordIn: string;
  running: string;
}

export const isSpacerRow = (r: ScriptRow | ScriptSpacerRow): r is ScriptSpacerRow => 'spacer' in r;

/** A length in seconds as a reader says it: `2 s`, `1.5 s`, `0.04 s`. */
function seconds(frames: number, so: StringOut): string {
  const s = Math.round(frameToMs(frames, so.rate) / 10) / 100;
  return `${s} s`;
}

/** What a spacer reads as in the script. */
export function spacerLine(sp: PlacedSpacer, so: StringOut): string {
  const length = seconds(sp.recordOut - sp.recordIn, so);
  return sp.kind === 'title' ? `TITLE: ${sp.text ?? ''} (${length})` : `— gap ${length} —`;
}

export interface Script {
  title: string;
  /** `12 bites from 5 clips, 00:03:41:12 at 23.976, from 01:00:00:00`. */
  summary: string;
  rows: Array<ScriptRow | ScriptSpacerRow>;
  /** The bites that could not be placed and what was chosen, as the export said. */
  notes: string[];
}

export function scriptOf(so: StringOut): Script {
  const clips = new Set(so.bites.map((b) => b.clip.key)).size;
  const total = timelineLength(so);
  const duration = (frames: number): string => recordTimecode({ ...so, startFrame: 0 }, frames);
  const rows = timelineItems(so).map(({ bite: b, spacer }): ScriptRow | ScriptSpacerRow =>
    spacer
      ? {
          spacer: true,
          line: spacerLine(spacer, so),
          recordIn: recordTimecode(so, spacer.recordIn),
          running: duration(spacer.recordOut),
        }
      : {
          number: b.number,
          label: b.label,
          clip: b.clip.fileName,
          ...(b.speaker ? { speaker: b.speaker } : {}),
          sourceIn: sourceTimecode(b.clip, b.sourceIn),
          sourceOut: sourceTimecode(b.clip, b.sourceOut),
          recordIn: recordTimecode(so, b.recordIn),
          running: duration(b.recordOut),
          note: b.note,
          text: b.text,
        },
  );
  const missing = so.missing.map(
    (m) => `Left out, ${m.reason}: ${m.labels.map((l) => `"${l}"`).join(', ')}${m.path ? ` (${m.path})` : ''}.`,
  );
  return {
    title: so.name,
    summary: `${so.bites.length} bite${so.bites.length === 1 ? '' : 's'} from ${clips} clip${clips === 1 ? '' : 's'}, ${duration(total)} at ${rateLabel(so.rate)}, from ${recordTimecode(so, 0)}.`,
    rows,
    notes: [...missing, ...so.notes],
  };
}

/** The row's heading line: `3. Budget talk (cam b.mp4, Ana) 00:59:51;02 – 00:59:53;10`. */
export function rowHeading(r: ScriptRow): string {
  const who = [r.clip, r.speaker].filter(Boolean).join(', ');
  return `${r.number}. ${r.label} (${who})  ${r.sourceIn} – ${r.sourceOut}`;
}

/** The row's timing line: where it sits on the timeline and the running time at its end. */
export const rowTiming = (r: Pick<ScriptRow, 'recordIn' | 'running'>): string =>
  `at ${r.recordIn}, running ${r.running}`;

export function renderScriptTxt(s: Script): string {
  const out = [s.title, s.summary, ''];
  for (const r of s.rows) {
    if (isSpacerRow(r)) {
      out.push(r.line, `   ${rowTiming(r)}`, '');
      continue;
    }
    out.push(rowHeading(r), `   ${rowTiming(r)}`);
    if (r.note) out.push(`   Note: ${r.note}`);
    out.push(`   ${r.text}`, '');
  }
  for (const n of s.notes) out.push(n);
  return `${out.join('\n').trimEnd()}\n`;
}
