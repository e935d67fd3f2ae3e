// The transcript as a Word document (.docx): a title, then one paragraph per speaker turn (or per
// long pause without speakers) starting with its time and the speaker's name, so an editor can
// print it, annotate it or hand it to a client. Built with the `docx` package (Office Open XML).
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { joinWords, type NormalizedTranscript } from '../../engine/captions/normalize.js';
import { paragraphs } from '../../engine/captions/formats.js';

/**
 * `stamp` labels a paragraph's first moment: the source timecode when the clip has one (as TXT's
 * stamps and the editor formats), else the clock from the media's start.
 */
export async function renderDocx(
  t: NormalizedTranscript,
  title: string,
  stamp: (ms: number) => string,
): Promise<Uint8Array> {
  const body: Paragraph[] = [new Paragraph({ text: title, heading: HeadingLevel.TITLE })];
  if (t.words.length === 0) {
    if (t.text !== '') body.push(new Paragraph({ text: t.text }));
  } else {
    for (const p of paragraphs(t.words, 2000)) {
      const first = p[0]!;
      const runs = [new TextRun({ text: `[${stamp(first.startMs)}] `, color: '555555' })];
      if (first.speaker) runs.push(new TextRun({ text: `${first.speaker}: `, bold: true }));
      runs.push(new TextRun({ text: joinWords(p) }));
      body.push(new Paragraph({ children: runs, spacing: { after: 160 } }));
    }
  }
  const doc = new Document({
    creator: 'Sluice',
    title,
    sections: [{ children: body }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}
