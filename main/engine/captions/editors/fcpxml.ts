// Final Cut Pro: FCPXML 1.8, the oldest version with `caption` and so the one every Final Cut
// since 10.4.1 imports. The clip links the media by file URL; its captions are anchored iTT
// captions (role `iTT?captionFormat=ITT.<lang>`: the language is the subrole) and its markers sit
// in the clip's source time. Every time is a rational on the frame grid (`frames × frameDuration`,
// unreduced, as Final Cut writes them), offsets counted from the asset's start = the source
// timecode, because Final Cut places the media there. Element order follows Apple's DTD.
// The asset's `start` and the clip's `start` are the media's own timecode, which Final Cut reads
// from the file and trusts; a fixed start (or a move away from midnight) moves only the timeline:
// the sequence's `tcStart` and the clip's `offset` on it.
import { create } from 'xmlbuilder2';
import { frameDuration, rationalTime } from '../../../../common/frames.js';
import type { EditorDocument } from './document.js';
import { fileUrl } from './file-url.js';

export function renderFcpxml(doc: EditorDocument): string {
  const { rate, startFrame, mediaStartFrame } = doc.timeline;
  const t = (frames: number): string => rationalTime(frames, rate);
  const tcFormat = rate.dropFrame ? 'DF' : 'NDF';
  const role = `iTT?captionFormat=ITT.${doc.language}`;

  const root = create({ version: '1.0', encoding: 'UTF-8' }).dtd({ name: 'fcpxml' }).ele('fcpxml', { version: '1.8' });
  const resources = root.ele('resources');
  // A format with no name is a custom one, which Final Cut defines by its frame duration and size.
  const size = doc.frameSize ? { width: String(doc.frameSize.width), height: String(doc.frameSize.height) } : {};
  resources.ele('format', { id: 'r1', frameDuration: frameDuration(rate), ...size });
  resources.ele('asset', {
    id: 'r2',
    name: doc.title,
    src: fileUrl(doc.sourcePath),
    start: t(mediaStartFrame),
    duration: t(doc.durationFrames),
    hasVideo: doc.hasVideo ? '1' : '0',
    hasAudio: doc.hasAudio ? '1' : '0',
    format: 'r1',
  });
  const sequence = root
    .ele('library')
    .ele('event', { name: 'Sluice' })
    .ele('project', { name: doc.title })
    .ele('sequence', { format: 'r1', duration: t(doc.durationFrames), tcStart: t(startFrame), tcFormat });
  const clip = sequence.ele('spine').ele('asset-clip', {
    ref: 'r2',
    name: doc.title,
    offset: t(startFrame),
    start: t(mediaStartFrame),
    duration: t(doc.durationFrames),
    tcFormat,
  });
  // DTD order inside asset-clip: anchored items (captions) first, then markers.
  doc.captions.forEach((c, i) => {
    const id = `ts${i + 1}`;
    const caption = clip.ele('caption', {
      lane: '1',
      offset: t(mediaStartFrame + c.start),
      name: c.lines.join(' '),
      duration: t(c.end - c.start),
      role,
    });
    caption.ele('text', { placement: 'bottom' }).ele('text-style', { ref: id }).txt(c.lines.join('\n'));
    caption.ele('text-style-def', { id }).ele('text-style', {
      font: '.AppleSystemUIFont',
      fontSize: '13',
      fontFace: 'Regular',
      fontColor: '1 1 1 1',
      backgroundColor: '0 0 0 1',
    });
  });
  for (const m of doc.markers) {
    // A chapter is Final Cut's chapter marker (it exports as a chapter of the movie); the others plain markers.
    clip.ele(m.kind === 'chapter' ? 'chapter-marker' : 'marker', {
      start: t(mediaStartFrame + m.frame),
      duration: t(1),
      value: m.name,
      ...(m.note ? { note: m.note } : {}),
    });
  }
  return `${root.end({ prettyPrint: true })}\n`;
}
