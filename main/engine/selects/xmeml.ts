// A string-out as a Premiere Pro sequence (Final Cut Pro 7 XML, xmeml: File ▸ Import), by the rules
// of the clip's own Premiere export (captions/editors/premiere.ts): the sequence at the timeline's
// rate and start; one clipitem per bite on the video track (pictures only) and on the audio track,
// `start`/`end` in sequence frames back to back, `in`/`out` in its clip's frames from the media's
// first frame, its file described once (path URL, rate, the media's own timecode) and referred to
// by id after. The bites' labels are sequence markers at their record in. A gap or title card is
// time left empty on the tracks (the clipitems after it start later: xmeml has no gap item); a
// title card is also a sequence marker holding its text, where the editor sets the title. Pure.
import { create } from 'xmlbuilder2';
import { nominalFps, type FrameRate } from '../timecode/rates.js';
import { formatTimecode, isNtscRate } from '../../../common/timecode.js';
import { fileUrl } from '../captions/editors/file-url.js';
import { timelineLength, type Bite, type StringOut } from './string-out.js';

type XMLBuilder = ReturnType<typeof create>;

function rateEl(parent: XMLBuilder, r: FrameRate): void {
  const rate = parent.ele('rate');
  rate.ele('timebase').txt(String(nominalFps(r)));
  rate.ele('ntsc').txt(isNtscRate(r) ? 'TRUE' : 'FALSE');
}

function timecodeEl(parent: XMLBuilder, r: FrameRate, frame: number): void {
  const tc = parent.ele('timecode');
  rateEl(tc, r);
  tc.ele('string').txt(formatTimecode(frame, r));
  tc.ele('frame').txt(String(frame));
  tc.ele('displayformat').txt(r.dropFrame ? 'DF' : 'NDF');
}

function clipItem(track: XMLBuilder, b: Bite, id: string, described: Set<string>): void {
  const c = b.clip;
  const item = track.ele('clipitem', { id });
  item.ele('name').txt(b.label);
  item.ele('duration').txt(String(c.durationFrames));
  rateEl(item, c.rate);
  item.ele('start').txt(String(b.recordIn));
  item.ele('end').txt(String(b.recordOut));
  item.ele('in').txt(String(b.sourceIn));
  item.ele('out').txt(String(b.sourceOut));
  const fileId = `file-${c.key}`;
  const file = item.ele('file', { id: fileId });
  if (!described.has(fileId)) {
    described.add(fileId);
    file.ele('name').txt(c.fileName);
    file.ele('pathurl').txt(fileUrl(c.path));
    rateEl(file, c.rate);
    file.ele('duration').txt(String(c.durationFrames));
    timecodeEl(file, c.rate, c.mediaStartFrame);
    const media = file.ele('media');
    if (c.hasVideo) media.ele('video');
    if (c.hasAudio) media.ele('audio').ele('channelcount').txt('2');
  }
  if (b.note) item.ele('comments').ele('mastercomment1').txt(b.note);
}

export function renderStringOutXmeml(so: StringOut): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).dtd({ name: 'xmeml' }).ele('xmeml', { version: '4' });
  const seq = root.ele('sequence', { id: 'sequence-1' });
  seq.ele('name').txt(so.name);
  seq.ele('duration').txt(String(timelineLength(so)));
  rateEl(seq, so.rate);
  timecodeEl(seq, so.rate, so.startFrame);
  const media = seq.ele('media');
  const described = new Set<string>();
  const video = media.ele('video').ele('track');
  so.bites.forEach((b) => b.clip.hasVideo && clipItem(video, b, `clipitem-v${b.number}`, described));
  const audio = media.ele('audio').ele('track');
  so.bites.forEach((b) => b.clip.hasAudio && clipItem(audio, b, `clipitem-a${b.number}`, described));
  for (const b of so.bites) {
    const marker = seq.ele('marker');
    marker.ele('name').txt(b.label);
    marker.ele('comment').txt([b.speaker, b.note].filter(Boolean).join(': '));
    marker.ele('in').txt(String(b.recordIn));
    marker.ele('out').txt('-1');
  }
  for (const t of so.spacers.filter((x) => x.kind === 'title')) {
    const marker = seq.ele('marker');
    marker.ele('name').txt(`TITLE: ${t.text ?? ''}`);
    marker.ele('comment').txt(`Title card, ${t.recordOut - t.recordIn} frames`);
    marker.ele('in').txt(String(t.recordIn));
    marker.ele('out').txt(String(t.recordOut));
  }
  return `${root.end({ prettyPrint: true })}\n`;
}
