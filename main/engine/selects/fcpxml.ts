// A string-out as a Final Cut Pro project (FCPXML 1.8, as the clip's own export: fcpxml.ts in
// captions/editors): a format per rate, an asset per clip (its start the media's own timecode),
// and a spine of asset-clips, one per bite, at its offset on the timeline (from `tcStart`), its
// `start` the bite's source in at its clip's timecode on its clip's frames, its duration its whole
// timeline frames. The bite's label is a marker at its first word, in the clip's source time.
// A clip of another rate keeps its own format; Final Cut plays it at its own speed. A gap row is a
// `<gap>` in the spine; a title card is a gap named after its text with the text as its note and a
// marker: Apple's DTD makes a `<title>` refer to a Motion effect (`ref` is required), which only
// Final Cut's own templates provide, so the card is left for the editor to drop a title on. Pure.
import { create } from 'xmlbuilder2';
import { frameDuration, rationalTime } from '../../../common/frames.js';
import { sameRate, type FrameRate } from '../timecode/rates.js';
import { fileUrl } from '../captions/editors/file-url.js';
import { timelineItems, timelineLength, type ClipPlacement, type StringOut } from './string-out.js';

export function renderStringOutFcpxml(so: StringOut): string {
  const tl = (frames: number): string => rationalTime(frames, so.rate);
  const tcFormat = (r: FrameRate): string => (r.dropFrame ? 'DF' : 'NDF');
  const root = create({ version: '1.0', encoding: 'UTF-8' }).dtd({ name: 'fcpxml' }).ele('fcpxml', { version: '1.8' });
  const resources = root.ele('resources');

  // One format per rate (and picture size); the timeline's first.
  const formats: Array<{ id: string; rate: FrameRate; size?: { width: number; height: number } }> = [];
  const formatOf = (rate: FrameRate, size?: { width: number; height: number }): string => {
    const found = formats.find(
      (f) => sameRate(f.rate, rate) && f.size?.width === size?.width && f.size?.height === size?.height,
    );
    if (found) return found.id;
    const id = `r${formats.length + 1}`;
    formats.push({ id, rate, ...(size ? { size } : {}) });
    resources.ele('format', {
      id,
      frameDuration: frameDuration(rate),
      ...(size ? { width: String(size.width), height: String(size.height) } : {}),
    });
    return id;
  };
  const first = so.bites.find((b) => b.clip.hasVideo && sameRate(b.clip.rate, so.rate))?.clip.frameSize;
  const sequenceFormat = formatOf(so.rate, first);

  const assets = new Map<string, string>();
  const clips: ClipPlacement[] = [];
  for (const b of so.bites) if (!clips.includes(b.clip)) clips.push(b.clip);
  clips.forEach((c, i) => {
    const format = formatOf(c.rate, c.frameSize);
    const id = `a${i + 1}`;
    assets.set(c.key, id);
    resources.ele('asset', {
      id,
      name: c.title,
      src: fileUrl(c.path),
      start: rationalTime(c.mediaStartFrame, c.rate),
      duration: rationalTime(c.durationFrames, c.rate),
      hasVideo: c.hasVideo ? '1' : '0',
      hasAudio: c.hasAudio ? '1' : '0',
      format,
    });
  });

  const total = timelineLength(so);
  const spine = root
    .ele('library')
    .ele('event', { name: 'Sluice' })
    .ele('project', { name: so.name })
    .ele('sequence', {
      format: sequenceFormat,
      duration: tl(total),
      tcStart: tl(so.startFrame),
      tcFormat: tcFormat(so.rate),
    })
    .ele('spine');
  for (const { bite: b, spacer } of timelineItems(so)) {
    if (spacer) {
      const title = spacer.kind === 'title' ? (spacer.text ?? '') : undefined;
      const gap = spine.ele('gap', {
        ...(title === undefined ? { name: 'Gap' } : { name: `TITLE: ${title}` }),
        offset: tl(so.startFrame + spacer.recordIn),
        start: tl(0),
        duration: tl(spacer.recordOut - spacer.recordIn),
      });
      if (title !== undefined) {
        gap.ele('note').txt(`Title card: ${title}`);
        gap.ele('marker', { start: tl(0), duration: tl(1), value: title, note: 'Title card' });
      }
      continue;
    }
    const c = b.clip;
    const src = (frames: number): string => rationalTime(c.mediaStartFrame + frames, c.rate);
    const item = spine.ele('asset-clip', {
      ref: assets.get(c.key)!,
      name: b.label,
      offset: tl(so.startFrame + b.recordIn),
      start: src(b.sourceIn),
      duration: tl(b.recordOut - b.recordIn),
      ...(sameRate(c.rate, so.rate) ? {} : { format: formatOf(c.rate, c.frameSize) }),
      tcFormat: tcFormat(c.rate),
      ...(c.hasVideo ? {} : { audioRole: 'dialogue' }),
    });
    if (b.note || b.speaker) item.ele('note').txt([b.speaker, b.note].filter(Boolean).join(': '));
    item.ele('marker', {
      start: src(b.wordsIn),
      duration: rationalTime(1, c.rate),
      value: b.label,
      ...(b.note ? { note: b.note } : {}),
    });
  }
  return `${root.end({ prettyPrint: true })}\n`;
}
