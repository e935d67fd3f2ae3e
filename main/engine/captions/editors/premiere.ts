// Premiere Pro: a Final Cut Pro 7 XML (xmeml) sequence (File ▸ Import), the one file Premiere
// takes markers from (it imports no FCPXML and no marker list). The sequence runs at the media's
// rate and starts at its source timecode; one clip links the media by file URL; the markers sit
// on the sequence, `in` counted in frames from the sequence's start. The file's timecode is the
// media's own; a fixed start (or a move away from midnight) moves the sequence's only.
import { create } from 'xmlbuilder2';
import { nominalFps } from '../../timecode/rates.js';
import { formatTimecode, isNtscRate } from '../../../../common/timecode.js';
import type { EditorDocument } from './document.js';
import { fileUrl } from './file-url.js';

type XMLBuilder = ReturnType<typeof create>;

function rateEl(parent: XMLBuilder, doc: EditorDocument): void {
  const rate = parent.ele('rate');
  rate.ele('timebase').txt(String(nominalFps(doc.timeline.rate)));
  rate.ele('ntsc').txt(isNtscRate(doc.timeline.rate) ? 'TRUE' : 'FALSE');
}

/** A `<timecode>` at `startFrame`: the sequence's (the timeline's start) or the file's (the media's own). */
function timecodeEl(parent: XMLBuilder, doc: EditorDocument, startFrame: number): void {
  const { rate } = doc.timeline;
  const tc = parent.ele('timecode');
  rateEl(tc, doc);
  tc.ele('string').txt(formatTimecode(startFrame, rate));
  tc.ele('frame').txt(String(startFrame));
  tc.ele('displayformat').txt(rate.dropFrame ? 'DF' : 'NDF');
}

function clipItem(track: XMLBuilder, doc: EditorDocument, id: string, first: boolean): void {
  const clip = track.ele('clipitem', { id });
  clip.ele('name').txt(doc.fileName);
  clip.ele('duration').txt(String(doc.durationFrames));
  rateEl(clip, doc);
  clip.ele('start').txt('0');
  clip.ele('end').txt(String(doc.durationFrames));
  clip.ele('in').txt('0');
  clip.ele('out').txt(String(doc.durationFrames));
  // The file is described once; the other track refers to it by id, as Final Cut 7 wrote it.
  const file = clip.ele('file', { id: 'file-1' });
  if (!first) return;
  file.ele('name').txt(doc.fileName);
  file.ele('pathurl').txt(fileUrl(doc.sourcePath));
  rateEl(file, doc);
  file.ele('duration').txt(String(doc.durationFrames));
  timecodeEl(file, doc, doc.timeline.mediaStartFrame);
  const media = file.ele('media');
  if (doc.hasVideo) media.ele('video');
  if (doc.hasAudio) media.ele('audio').ele('channelcount').txt('2');
}

export function renderPremiere(doc: EditorDocument): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).dtd({ name: 'xmeml' }).ele('xmeml', { version: '4' });
  const seq = root.ele('sequence', { id: 'sequence-1' });
  seq.ele('name').txt(doc.title);
  seq.ele('duration').txt(String(doc.durationFrames));
  rateEl(seq, doc);
  timecodeEl(seq, doc, doc.timeline.startFrame);
  const media = seq.ele('media');
  let first = true;
  if (doc.hasVideo) {
    clipItem(media.ele('video').ele('track'), doc, 'clipitem-1', first);
    first = false;
  }
  if (doc.hasAudio || first) clipItem(media.ele('audio').ele('track'), doc, 'clipitem-2', first);
  for (const m of doc.markers) {
    const marker = seq.ele('marker');
    marker.ele('name').txt(m.name);
    marker.ele('comment').txt(m.note);
    marker.ele('in').txt(String(m.frame));
    marker.ele('out').txt('-1');
  }
  return `${root.end({ prettyPrint: true })}\n`;
}
