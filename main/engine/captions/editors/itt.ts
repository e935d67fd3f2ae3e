// iTT (Apple iTunes Timed Text), the captions Final Cut Pro imports and exports: TTML with
// `ttp:timeBase="smpte"`, the nominal frame rate with its 1000/1001 multiplier, and times in
// the source timecode. Apple forbids `;` in iTT times, so drop-frame is said by `ttp:dropMode`
// and the frame labels keep `:`. One region at the bottom, as Final Cut writes it.
import { create } from 'xmlbuilder2';
import { nominalFps } from '../../timecode/rates.js';
import { formatTimecode, isNtscRate } from '../../../../common/timecode.js';
import type { EditorDocument } from './document.js';

export const TTML_NS = {
  tt: 'http://www.w3.org/ns/ttml',
  tts: 'http://www.w3.org/ns/ttml#styling',
  ttp: 'http://www.w3.org/ns/ttml#parameter',
  ttm: 'http://www.w3.org/ns/ttml#metadata',
} as const;

export function renderItt(doc: EditorDocument): string {
  const { rate, startFrame } = doc.timeline;
  const tc = (frames: number): string => formatTimecode(startFrame + frames, rate, ':');
  const ntsc = isNtscRate(rate);
  const tt = create({ version: '1.0', encoding: 'UTF-8' }).ele(TTML_NS.tt, 'tt', {
    'xmlns:tts': TTML_NS.tts,
    'xmlns:ttp': TTML_NS.ttp,
    'xmlns:ttm': TTML_NS.ttm,
    'xml:lang': doc.language,
    'ttp:timeBase': 'smpte',
    'ttp:frameRate': String(nominalFps(rate)),
    ...(ntsc ? { 'ttp:frameRateMultiplier': '1000 1001' } : {}),
    'ttp:dropMode': rate.dropFrame ? 'dropNTSC' : 'nonDrop',
  });
  const head = tt.ele('head');
  head.ele('metadata').ele('ttm:title').txt(doc.title);
  head.ele('styling').ele('style', {
    'xml:id': 'normal',
    'tts:fontFamily': 'sansSerif',
    'tts:fontSize': '100%',
    'tts:fontStyle': 'normal',
    'tts:fontWeight': 'normal',
    'tts:color': 'white',
    'tts:textAlign': 'center',
  });
  head.ele('layout').ele('region', {
    'xml:id': 'bottom',
    'tts:origin': '0% 85%',
    'tts:extent': '100% 15%',
    'tts:displayAlign': 'after',
  });
  const div = tt.ele('body', { style: 'normal', region: 'bottom' }).ele('div');
  for (const c of doc.captions) {
    const p = div.ele('p', { begin: tc(c.start), end: tc(c.end) });
    c.lines.forEach((line, i) => {
      if (i > 0) p.ele('br');
      p.txt(line);
    });
  }
  // Not indented: a caption's text and its <br/> are mixed content, where indentation would add spaces.
  return `${tt.end()}\n`;
}
