// DaVinci Resolve timeline markers as a CMX 3600 EDL (Timelines ▸ Import ▸ Timeline Markers from
// EDL): one one-frame event per marker at the timeline timecode, the marker in the comment line
// ` |C:ResolveColor<Colour> |M:<name> |D:<frames>`. Resolve's own rules, kept here: at most 999
// events (the event number has three digits), a name starting with a digit is ignored (so it gets
// a word in front), `|` ends a field (so it becomes `/`), one marker per frame (document.ts).
// An EDL has no place for a note: the marker's name is all Resolve reads.
import { formatTimecode } from '../../timecode/timecode.js';
import type { EditorDocument } from './document.js';

export const EDL_MAX_EVENTS = 999;

/** A marker name Resolve accepts: one line, no field separator, not starting with a digit. */
export function edlMarkerName(name: string): string {
  const clean =
    name
      .replace(/[\r\n\t]+/g, ' ')
      .replace(/\|/g, '/')
      .trim() || 'Marker';
  return /^\d/.test(clean) ? `Marker ${clean}` : clean;
}

/** The title line: ASCII letters, digits and simple punctuation (older EDL readers choke on more). */
const edlTitle = (title: string): string => title.replace(/[^\x20-\x7e]/g, '_').slice(0, 70) || 'Sluice';

export function renderEdl(doc: EditorDocument): string {
  const { rate, startFrame } = doc.timeline;
  const tc = (frames: number): string => formatTimecode(startFrame + frames, rate);
  const lines = [`TITLE: ${edlTitle(doc.title)}`, `FCM: ${rate.dropFrame ? 'DROP FRAME' : 'NON-DROP FRAME'}`, ''];
  doc.markers.slice(0, EDL_MAX_EVENTS).forEach((m, i) => {
    const event = String(i + 1).padStart(3, '0');
    const inTc = tc(m.frame);
    const outTc = tc(m.frame + 1);
    lines.push(`${event}  001      V     C        ${inTc} ${outTc} ${inTc} ${outTc}  `);
    lines.push(` |C:ResolveColor${m.colour} |M:${edlMarkerName(m.name)} |D:1`);
    lines.push('');
  });
  return `${lines.join('\n')}\n`;
}
