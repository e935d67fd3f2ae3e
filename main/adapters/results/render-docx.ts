// The transcript as a Word document (.docx): a title, then one paragraph per speaker turn (or per
// long pause without speakers) starting with its time and the speaker's name, so an editor can
// print it, annotate it or hand it to a client. Built with the `docx` package (Office Open XML).
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { joinWords, type NormalizedTranscript } from '../../engine/captions/normalize.js';
import { paragraphs } from '../../engine/captions/formats.js';

const clock = (ms: number): string => {
  const total = Math.max(0, Math.floor(ms / 1000));
  const pad = (v: number): string => String(v).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
};

export async function renderDocx(t: NormalizedTranscript, title: string): Promise<Uint8Array> {
  const body: Paragraph[] = [new Paragraph({ text: title, heading: HeadingLevel.TITLE })];
  if (t.words.length === 0) {
    if (t.text !== '') body.push(new Paragraph({ text: t.text }));
  } else {
    for (const p of paragraphs(t.words, 2000)) {
      const first = p[0]!;
      const runs = [new TextRun({ text: `[${clock(first.startMs)}] `, color: '555555' })];
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
