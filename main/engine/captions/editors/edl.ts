// DaVinci Resolve timeline markers as a CMX 3600 EDL (Timelines ▸ Import ▸ Timeline Markers from
// EDL): one one-frame event per marker at the timeline timecode, the marker in the comment line
// ` |C:ResolveColor<Colour> |M:<name> |D:<frames>`. Resolve's own rules, kept here:
// - CMX 3600 numbers an event with three digits, so a file holds at most 999 events. More markers
//   (a long interview: ~940 turns in two hours) go on in further files of 999, each a whole EDL on
//   the same timeline start, importable alone; the job names them (edlFiles below).
// - Resolve keeps one point marker per frame and drops the others, so markers sharing a frame
//   (a chapter, a quote and a turn on one word) are one event named after all of them, in the
//   first one's colour. The other formats keep each on its own frame (document.ts).
// - A name starting with a digit is ignored (so it gets a word in front), `|` ends a field (so it
//   becomes `/`), and the text is printable ASCII like the title (ascii.ts).
// An EDL has no place for a note: the marker's name is all Resolve reads.
import { formatTimecode } from '../../../../common/timecode.js';
import type { RenderedFiles } from '../render.js';
import { asciiText } from './ascii.js';
import type { EditorDocument, EditorMarker } from './document.js';

export const EDL_MAX_EVENTS = 999;

/** A marker name Resolve accepts: printable ASCII on one line, no field separator, not starting with a digit. */
export function edlMarkerName(name: string): string {
  const clean =
    asciiText(name.replace(/[\r\n\t]+/g, ' '))
      .replace(/\|/g, '/')
      .trim() || 'Marker';
  return /^\d/.test(clean) ? `Marker ${clean}` : clean;
}

/** The title line: printable ASCII, as short as older EDL readers take. */
const edlTitle = (title: string): string => asciiText(title).slice(0, 56).trim() || 'Sluice';

interface EdlEvent {
  frame: number;
  colour: string;
  name: string;
}

/** One event per frame: markers on the frame of the one before join it (Resolve would drop them). */
export function edlEvents(markers: readonly EditorMarker[]): EdlEvent[] {
  const out: EdlEvent[] = [];
  for (const m of markers) {
    const name = edlMarkerName(m.name);
    const last = out[out.length - 1];
    if (last && last.frame === m.frame) {
      if (!last.name.split(' / ').includes(name)) last.name = `${last.name} / ${name}`;
    } else out.push({ frame: m.frame, colour: m.colour, name });
  }
  return out;
}

/** Where the markers past the first file's 999 go: `{name}.markers-2.edl`, `{name}.markers-3.edl`… */
export const edlPartSuffix = (n: number): string => `markers-${n}`;

/**
 * The EDL files of a document: one, or as many as 999 events at a time take, each with its own
 * title line and event numbers from 001, on the timeline's own start.
 */
export function renderEdl(doc: EditorDocument): string[] {
  const { rate, startFrame } = doc.timeline;
  const tc = (frames: number): string => formatTimecode(startFrame + frames, rate);
  const events = edlEvents(doc.markers);
  const count = Math.max(1, Math.ceil(events.length / EDL_MAX_EVENTS));
  return Array.from({ length: count }, (_, p) => {
    const title = count === 1 ? edlTitle(doc.title) : `${edlTitle(doc.title)} part ${p + 1} of ${count}`;
    const lines = [`TITLE: ${title}`, `FCM: ${rate.dropFrame ? 'DROP FRAME' : 'NON-DROP FRAME'}`, ''];
    events.slice(p * EDL_MAX_EVENTS, (p + 1) * EDL_MAX_EVENTS).forEach((e, i) => {
      const event = String(i + 1).padStart(3, '0');
      const inTc = tc(e.frame);
      const outTc = tc(e.frame + 1);
      lines.push(`${event}  001      V     C        ${inTc} ${outTc} ${inTc} ${outTc}  `);
      lines.push(` |C:ResolveColor${e.colour} |M:${e.name} |D:1`);
      lines.push('');
    });
    return `${lines.join('\n')}\n`;
  });
}

/** What the job says when the markers took more than one file, naming them as written. */
export function edlSplitNote(markers: number, files: readonly string[]): string {
  return (
    `${markers} markers are more than one CMX 3600 EDL holds (its event number has three digits: 999 at most), ` +
    `so Resolve's markers are in ${files.length} files, each on the same timeline start: ${files.join(', ')}. ` +
    'Import each of them into the timeline (Timelines ▸ Import ▸ Timeline Markers from EDL).'
  );
}

/** The EDL as the result writer takes it: one file, or several with the note that names them. */
export function edlFiles(doc: EditorDocument): string | RenderedFiles {
  const files = renderEdl(doc);
  if (files.length === 1) return files[0]!;
  const markers = edlEvents(doc.markers).length;
  return {
    parts: files.map((text, i) => (i === 0 ? { text } : { text, suffix: edlPartSuffix(i + 1) })),
    note: (names) => edlSplitNote(markers, names),
  };
}
