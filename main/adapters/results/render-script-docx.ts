// The paper-edit script as a Word document (.docx), from the rows the .txt is written from
// (engine/selects/script.ts): a title and the list's summary, then per bite a heading line with its
// clip, speaker and source timecode, its place and running time, its note, and its words, so a
// producer can print it and mark it up. Built with the `docx` package, as the transcript's .docx.
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { isSpacerRow, rowHeading, rowTiming, type Script } from '../../engine/selects/script.js';

export async function renderScriptDocx(s: Script): Promise<Uint8Array> {
  const body: Paragraph[] = [
    new Paragraph({ text: s.title, heading: HeadingLevel.TITLE }),
    new Paragraph({ children: [new TextRun({ text: s.summary, color: '555555' })], spacing: { after: 240 } }),
  ];
  for (const r of s.rows) {
    if (isSpacerRow(r)) {
      body.push(new Paragraph({ children: [new TextRun({ text: r.line, bold: true })], keepNext: true }));
      body.push(
        new Paragraph({ children: [new TextRun({ text: rowTiming(r), color: '555555' })], spacing: { after: 200 } }),
      );
      continue;
    }
    body.push(new Paragraph({ children: [new TextRun({ text: rowHeading(r), bold: true })], keepNext: true }));
    body.push(new Paragraph({ children: [new TextRun({ text: rowTiming(r), color: '555555' })], keepNext: true }));
    if (r.note) body.push(new Paragraph({ children: [new TextRun({ text: `Note: ${r.note}`, italics: true })] }));
    body.push(new Paragraph({ text: r.text, spacing: { after: 200 } }));
  }
  for (const n of s.notes) body.push(new Paragraph({ children: [new TextRun({ text: n, color: '555555' })] }));
  const doc = new Document({ creator: 'Sluice', title: s.title, sections: [{ children: body }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}
