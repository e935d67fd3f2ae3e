// Which markers the editor formats carry: the paragraphs', the editor's own (kept with the
// corrections) and a recipe's chapters and pull quotes, as a folder chooses; read back with XML parsers,
// the FCPXML against Apple's DTD.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResultOwnership, writeResults } from '../../../main/adapters/results/write-results.js';
import { normalizeExport } from '../../../main/engine/captions/normalize.js';
import { createJob, type JobRecord } from '../../../main/engine/job.js';
import { OUTPUT, type OutputSettings } from '../../../main/engine/settings.js';
import { emptyLayer, record, replay } from '../../../main/engine/transcript/corrections.js';
import { normalizedOf, transcriptOf } from '../../../main/engine/transcript/transcript.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';

const FIXTURE = new URL('../../fixtures/captions/two-speakers.json', import.meta.url);
const DTD = fileURLToPath(new URL('../../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (n) => ['marker', 'chapter-marker'].includes(n),
});

let dir: string;
let source: string;
let staged: string;

function jobFor(output: Partial<OutputSettings>): JobRecord {
  return createJob(
    {
      id: 'job-1',
      source: { path: source, size: 1000, mtimeMs: 5 },
      origin: { kind: 'manual' },
      seq: 1,
      templateId: TEMPLATE_IDS.diarization,
      params: {},
      output: OUTPUT.parse({ timeline: { start: '01:00:00:00', defaultRate: '25' }, ...output }),
    },
    0,
  );
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-editor-markers-'));
  source = path.join(dir, 'interview.mov');
  await writeFile(source, 'media');
  // The export as the chapter recipe returns it: one chapter opening at "Hi, I'd like to book".
  const exported = JSON.parse(await readFile(FIXTURE, 'utf8')) as Record<string, unknown>;
  exported.askAnything = {
    a: {
      promptId: 'sluice-chapters',
      content: JSON.stringify({ title: 'Call', chapters: [{ title: 'Booking', firstWords: "Hi, I'd like to book" }] }),
    },
    b: {
      promptId: 'sluice-quotes',
      content: JSON.stringify({
        quotes: [{ quote: '"A table for two tonight, around eight o’clock."' }, { quote: 'never said' }],
      }),
    },
  };
  staged = path.join(dir, 'staged-export.json');
  await writeFile(staged, JSON.stringify(exported));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The transcript with two markers of the editor's own, as the review saves them. */
async function withMarkers(): Promise<{ exportText: string; transcript: ReturnType<typeof normalizedOf> }> {
  const text = await readFile(staged, 'utf8');
  let layer = emptyLayer('h');
  layer = record(layer, { kind: 'addMarker', atMs: 2000, name: '1st bite', note: 'Use this', colour: 'Cyan' });
  layer = record(layer, { kind: 'addMarker', atMs: 420, name: 'Same frame', note: '', colour: 'Yellow' });
  return { exportText: text, transcript: normalizedOf(replay(transcriptOf(normalizeExport(text)), layer)) };
}

const edlMarkers = (text: string): Array<{ tc: string; colour: string; name: string }> =>
  [...text.matchAll(/^\d{3} +\S+ +V +C +(\S+) .*\n \|C:ResolveColor(\w+) \|M:(.+) \|D:1$/gm)].map((m) => ({
    tc: m[1]!,
    colour: m[2]!,
    name: m[3]!,
  }));

describe('markers in the editor formats', () => {
  it('by default: the paragraphs’ and the editor’s own, each on its frame; the EDL one event a frame', async () => {
    const results = await writeResults(
      jobFor({ formats: ['edl', 'fcpxml', 'premiere'] }),
      staged,
      new ResultOwnership(() => []),
      new Date(),
      await withMarkers(),
    );
    const read = (f: string): Promise<string> => readFile(results.find((r) => r.format === f)!.path, 'utf8');
    const edl = edlMarkers(await read('edl'));
    // 420 ms at 25 fps is frame 10, where the first turn starts: Resolve keeps one marker a frame, so
    // one event named after both, in the colour of the editor's own (it comes first).
    expect(edl[0]).toEqual({ tc: '01:00:00:10', colour: 'Yellow', name: 'Same frame / Speaker 1' });
    expect(edl[1]!.tc > '01:00:00:10').toBe(true);
    // A name starting with a digit gets a word in front (Resolve ignores it otherwise); Cyan as chosen.
    expect(edl).toContainEqual({ tc: '01:00:02:00', colour: 'Cyan', name: 'Marker 1st bite' });
    expect(edl.some((m) => m.name === 'Booking')).toBe(false);

    const fcpxml = results.find((r) => r.format === 'fcpxml')!.path;
    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, fcpxml], { stdio: 'pipe' });
    const clip = (
      xml.parse(await read('fcpxml')) as {
        fcpxml: { library: { event: { project: { sequence: { spine: { 'asset-clip': Record<string, unknown> } } } } } };
      }
    ).fcpxml.library.event.project.sequence.spine['asset-clip'];
    const markers = clip.marker as Array<{ value: string; note?: string; start: string }>;
    // Markers sit in the clip's source time: this media has no timecode of its own (it starts at 0),
    // and the fixed 01:00:00:00 moves the clip on the timeline (its offset), not the media.
    expect(clip).toMatchObject({ offset: '90000/25s', start: '0s' });
    expect(markers).toContainEqual(expect.objectContaining({ value: '1st bite', note: 'Use this', start: '50/25s' }));
    // Final Cut keeps both markers of frame 10 there.
    expect(markers.filter((m) => m.start === '10/25s').map((m) => m.value)).toEqual(['Same frame', 'Speaker 1']);
    expect(clip['chapter-marker']).toBeUndefined();

    const seq = (
      xml.parse(await read('premiere')) as { xmeml: { sequence: { marker: Array<{ name: string; in: number }> } } }
    ).xmeml.sequence;
    expect(seq.marker).toContainEqual(expect.objectContaining({ name: '1st bite', in: 50 }));
  });

  it('chapters only, when the folder says so: FCPXML chapter markers, Resolve and Premiere markers', async () => {
    const results = await writeResults(
      jobFor({ formats: ['edl', 'fcpxml', 'premiere'], markers: ['chapters'] }),
      staged,
      new ResultOwnership(() => []),
      new Date(),
      await withMarkers(),
    );
    const read = (f: string): Promise<string> => readFile(results.find((r) => r.format === f)!.path, 'utf8');
    const edl = edlMarkers(await read('edl'));
    expect(edl.map((m) => m.name)).toEqual(['Booking']);
    const fcpxml = results.find((r) => r.format === 'fcpxml')!.path;
    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, fcpxml], { stdio: 'pipe' });
    const clip = (
      xml.parse(await read('fcpxml')) as {
        fcpxml: { library: { event: { project: { sequence: { spine: { 'asset-clip': Record<string, unknown> } } } } } };
      }
    ).fcpxml.library.event.project.sequence.spine['asset-clip'];
    expect(clip.marker).toBeUndefined();
    expect(clip['chapter-marker']).toEqual([expect.objectContaining({ value: 'Booking' })]);
    const seq = (xml.parse(await read('premiere')) as { xmeml: { sequence: { marker: Array<{ name: string }> } } })
      .xmeml.sequence;
    expect(seq.marker.map((m) => m.name)).toEqual(['Booking']);
  });

  it('pull quotes, when the folder says so: a marker named by the quote, its speaker in the note, in every format', async () => {
    const results = await writeResults(
      jobFor({ formats: ['edl', 'fcpxml', 'premiere'], markers: ['chapters', 'quotes'] }),
      staged,
      new ResultOwnership(() => []),
      new Date(),
      await withMarkers(),
    );
    const read = (f: string): Promise<string> => readFile(results.find((r) => r.format === f)!.path, 'utf8');
    const quote = '“A table for two tonight, around eight o’clock.”';
    // The first chapter starts at 0; "a" at 5850 ms is frame 146 at 25 fps; the quote not in the transcript is no marker.
    // The EDL's name in ASCII, as Resolve reads it: the quotes and apostrophe straightened.
    expect(edlMarkers(await read('edl'))).toEqual([
      { tc: '01:00:00:00', colour: 'Red', name: 'Booking' },
      { tc: '01:00:05:21', colour: 'Cyan', name: '"A table for two tonight, around eight o\'clock."' },
    ]);
    const fcpxml = results.find((r) => r.format === 'fcpxml')!.path;
    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, fcpxml], { stdio: 'pipe' });
    const clip = (
      xml.parse(await read('fcpxml')) as {
        fcpxml: { library: { event: { project: { sequence: { spine: { 'asset-clip': Record<string, unknown> } } } } } };
      }
    ).fcpxml.library.event.project.sequence.spine['asset-clip'];
    expect(clip['chapter-marker']).toEqual([expect.objectContaining({ value: 'Booking' })]);
    expect(clip.marker).toEqual([expect.objectContaining({ value: quote, note: 'Speaker 2' })]);
    const seq = (
      xml.parse(await read('premiere')) as {
        xmeml: { sequence: { marker: Array<{ name: string; comment?: string }> } };
      }
    ).xmeml.sequence;
    expect(seq.marker.map((m) => m.name)).toEqual(['Booking', quote]);
  });
});
