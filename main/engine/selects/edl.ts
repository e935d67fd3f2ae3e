// A string-out as a CMX 3600 EDL, for Avid and any NLE: one cut event per bite, its source in and
// out and its record in and out from the timeline's start, a reel name per source within the
// format's eight characters, and the clip's name and file in `* FROM CLIP NAME:` and
// `* SOURCE FILE:` comments. At most 999 events (the event number has three digits).
//
// Note (one rate): an EDL counts every timecode at one rate (its FCM line says only drop-frame or
// not), and a reader checks that each event's source and record lengths agree. A bite whose clip
// runs at the timeline's rate has its own timecode labels, exactly. A bite of another rate has its
// words' span relabelled on the timeline's rate (in down, out up, at the same moments of its media),
// so its event may be a frame longer or shorter than in the formats that keep the clip's own frames,
// and the EDL's record times follow its own events; the clip's own labels are kept in a
// `* SOURCE TC` comment, and the export says so.
//
// A gap or title card moves the record time of the events after it on by its length: no event is
// written for it (a black event would be one more source for the editor to relink), and a title
// card's text is a `* TITLE CARD:` comment on the event that follows it. Pure.
import { sameRate, rateLabel } from '../timecode/rates.js';
import { formatTimecode } from '../../../common/timecode.js';
import { edlMarkerName } from '../captions/editors/edl.js';
import { frameOnRate, recordTimecode, sourceTimecode, timelineItems, type Bite, type StringOut } from './string-out.js';

export const STRING_OUT_EDL_MAX_EVENTS = 999;
const REEL_CHARS = 8;

/** A comment's text: one line, printable ASCII (older EDL readers stop at anything else). */
const ascii = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '_')
    .trim();

/** Reel names per clip: the file's name in capitals, letters, digits and `_`, at most 8, each its own. */
export function reelNames(clips: ReadonlyArray<{ key: string; title: string }>): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const c of clips) {
    const base =
      ascii(c.title)
        .toUpperCase()
        .replace(/[^A-Z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, REEL_CHARS) || 'REEL';
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      const suffix = String(n);
      name = `${base.slice(0, REEL_CHARS - suffix.length)}${suffix}`;
    }
    taken.add(name);
    out.set(c.key, name);
  }
  return out;
}

function channels(b: Bite): string {
  if (b.clip.hasVideo && b.clip.hasAudio) return 'AA/V';
  return b.clip.hasVideo ? 'V' : 'AA';
}

export function renderStringOutEdl(so: StringOut): string {
  const title = ascii(so.name).slice(0, 70) || 'Sluice';
  const lines = [`TITLE: ${title}`, `FCM: ${so.rate.dropFrame ? 'DROP FRAME' : 'NON-DROP FRAME'}`, ''];
  const clips = [...new Map(so.bites.map((b) => [b.clip.key, b.clip])).values()];
  const reels = reelNames(clips);
  let record = 0;
  let titles: string[] = [];
  let events = 0;
  for (const { bite: b, spacer } of timelineItems(so)) {
    if (spacer) {
      record += spacer.recordOut - spacer.recordIn;
      if (spacer.kind === 'title') titles.push(spacer.text ?? '');
      continue;
    }
    if (++events > STRING_OUT_EDL_MAX_EVENTS) break;
    const c = b.clip;
    const own = sameRate(c.rate, so.rate) && c.rate.dropFrame === so.rate.dropFrame;
    // Another rate: the bite's span snapped anew on the EDL's frames (in down, out up), so the event
    // still holds every word and ends within a frame of them; its length may differ by a frame from
    // the formats that keep the clip's own frames.
    // Labels from the clip's label start: a clip through midnight is counted hours earlier.
    const srcIn = own
      ? c.labelStartFrame + b.sourceIn
      : frameOnRate(c.labelStartFrame, b.fromMs, c.rate, so.rate, false);
    const srcOut = own
      ? srcIn + (b.recordOut - b.recordIn)
      : frameOnRate(c.labelStartFrame, b.toMs, c.rate, so.rate, true);
    const length = Math.max(1, srcOut - srcIn);
    const tc = (f: number): string => formatTimecode(f, so.rate);
    const event = String(b.number).padStart(3, '0');
    const reel = reels.get(c.key)!.padEnd(REEL_CHARS, ' ');
    const chan = channels(b).padEnd(6, ' ');
    lines.push(
      `${event}  ${reel} ${chan}C        ${tc(srcIn)} ${tc(srcIn + length)} ${recordTimecode(so, record)} ${recordTimecode(so, record + length)}`,
    );
    record += length;
    lines.push(`* FROM CLIP NAME: ${ascii(c.fileName)}`);
    lines.push(`* SOURCE FILE: ${ascii(c.path)}`);
    if (!own) {
      lines.push(
        `* SOURCE TC ${rateLabel(c.rate)}: ${sourceTimecode(c, b.sourceIn)} ${sourceTimecode(c, b.sourceOut)} (relabelled at ${rateLabel(so.rate)})`,
      );
    }
    lines.push(`* COMMENT: ${ascii(edlMarkerName(b.label))}`);
    for (const t of titles) lines.push(`* TITLE CARD: ${ascii(t)}`);
    titles = [];
    lines.push('');
  }
  // Title cards after the last bite: said under the last event, the only place a comment may go.
  if (titles.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (const t of titles) lines.push(`* TITLE CARD: ${ascii(t)}`, '');
  return `${lines.join('\n')}\n`;
}
