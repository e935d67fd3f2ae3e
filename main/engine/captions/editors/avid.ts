// Avid Media Composer captions: the SubCap text file its SubCap effect imports (Import Caption
// Data). Times are the timeline timecode in frames, start and end (the first frame no longer
// shown), drop-frame written with `;` as Avid shows it.
import { formatTimecode } from '../../../../common/timecode.js';
import type { EditorDocument } from './document.js';

export const SUBCAP_HEADER = '@ This file written with the Avid Caption plugin, version 1';

export function renderAvid(doc: EditorDocument): string {
  const { rate, startFrame } = doc.timeline;
  const tc = (frames: number): string => formatTimecode(startFrame + frames, rate);
  const blocks = doc.captions.map((c) =>
    [`${tc(c.start)} ${tc(c.end)}`, ...c.lines.map((l) => l.replace(/[\r\n]+/g, ' '))].join('\n'),
  );
  return [SUBCAP_HEADER, '', '<begin subtitles>', '', ...blocks.flatMap((b) => [b, '']), '<end subtitles>', ''].join(
    '\n',
  );
}
