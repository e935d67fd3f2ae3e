// TTML in the IMSC 1.1 Text Profile, in media time: the deliverable format, and what Premiere
// Pro and Resolve import as captions. Media time starts at the media's first moment, so no
// source timecode here. Times are written to the millisecond, rounded UP from each frame's exact
// start: 1001/1000 rates have no finite decimal frame boundaries, and a time a hair after a
// frame's start still falls in that frame for any reader that rounds down or to nearest.
import { create } from 'xmlbuilder2';
import { frameToMs } from '../../../../common/frames.js';
import type { EditorDocument } from './document.js';
import { TTML_NS } from './itt.js';

const IMSC11_TEXT = 'http://www.w3.org/ns/ttml/profile/imsc1.1/text';

function clockTime(ms: number): string {
  const total = Math.ceil(ms - 1e-9);
  const pad = (v: number, n = 2): string => String(v).padStart(n, '0');
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor(total / 60_000) % 60;
  const s = Math.floor(total / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(total % 1000, 3)}`;
}

export function renderTtml(doc: EditorDocument): string {
  const { rate } = doc.timeline;
  const time = (frames: number): string => clockTime(frameToMs(frames, rate));
  const tt = create({ version: '1.0', encoding: 'UTF-8' }).ele(TTML_NS.tt, 'tt', {
    'xmlns:tts': TTML_NS.tts,
    'xmlns:ttp': TTML_NS.ttp,
    'xmlns:ttm': TTML_NS.ttm,
    'xml:lang': doc.language,
    'ttp:contentProfiles': IMSC11_TEXT,
    'ttp:timeBase': 'media',
  });
  const head = tt.ele('head');
  head.ele('metadata').ele('ttm:title').txt(doc.title);
  head.ele('styling').ele('style', {
    'xml:id': 'normal',
    'tts:fontFamily': 'proportionalSansSerif',
    'tts:fontSize': '100%',
    'tts:color': 'white',
    'tts:backgroundColor': '#000000cc',
    'tts:textAlign': 'center',
  });
  head.ele('layout').ele('region', {
    'xml:id': 'bottom',
    'tts:origin': '10% 80%',
    'tts:extent': '80% 15%',
    'tts:displayAlign': 'after',
  });
  const div = tt.ele('body', { style: 'normal', region: 'bottom' }).ele('div');
  for (const c of doc.captions) {
    const p = div.ele('p', { begin: time(c.start), end: time(c.end) });
    c.lines.forEach((line, i) => {
      if (i > 0) p.ele('br');
      p.txt(line);
    });
  }
  // Not indented: a caption's text and its <br/> are mixed content, where indentation would add spaces.
  return `${tt.end()}\n`;
}
