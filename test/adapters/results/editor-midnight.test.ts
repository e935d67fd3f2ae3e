// A 25 fps clip whose timecode track starts at 23:59:50:00 (made by ffmpeg), with two people talking
// across midnight. Every format written must have its captions and markers in order, each ending
// after it begins, and all must agree: iTT, SubCap, EDL and the TXT and DOCX stamps are labels on one
// timeline (moved back whole hours so no label passes 23:59:59, and said in the job); FCPXML and
// xmeml place the clip on that timeline while keeping the media's own start. The EDL, xmeml and
// FCPXML are read back with OpenTimelineIO's own adapters (../shared/tools/otio), the captions with
// smpte-timecode and exact rationals, the FCPXML against Apple's DTD.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import Timecode from 'smpte-timecode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultOwnership, writeResults } from '../../../main/adapters/results/write-results.js';
import { createJob } from '../../../main/engine/job.js';
import { OUTPUT } from '../../../main/engine/settings.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';
import { hasOtio, runOtio } from '../../helpers/otio.js';

const DTD = fileURLToPath(new URL('../../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (n) => ['caption', 'marker'].includes(n),
});
const FPS = 25;
const at = (tc: string): number => new Timecode(tc, FPS, false).frameCount;
const SOURCE = at('23:59:50:00');
const HOUR = FPS * 3600;

let dir: string;
let files: Record<string, string>;
let notes: string[];

/** Two speakers taking turns every six words, a word each 450 ms from 0.3 s to past 19 s: midnight falls at 10 s. */
function exportText(): string {
  const words = Array.from({ length: 42 }, (_, i) => ({
    word: ` w${i}${i % 6 === 5 ? '.' : ''}`,
    start: 300 + i * 450,
    end: 300 + i * 450 + 380,
    confidence: 0.9,
    language: 'en',
    speakers: [Math.floor(i / 6) % 2 === 0 ? 'SPEAKER_0' : 'SPEAKER_1'],
    speakersOverlap: false,
  }));
  return JSON.stringify({ transcription: { text: words.map((w) => w.word).join(''), words } });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-midnight-'));
  const media = path.join(dir, 'Midnight 25.mov');
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=25:duration=20'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=300:duration=20', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-timecode', '23:59:50:00', media],
  ]);
  const staged = path.join(dir, 'staged.json');
  await writeFile(staged, exportText());
  const formats = ['fcpxml', 'itt', 'ttml', 'edl', 'premiere', 'avid', 'srt', 'txt', 'docx'] as const;
  const job = createJob(
    {
      id: 'job-midnight',
      source: { path: media, size: 1, mtimeMs: 1 },
      origin: { kind: 'manual' },
      seq: 1,
      templateId: TEMPLATE_IDS.diarization,
      params: {},
      output: OUTPUT.parse({ formats, txtTimestamps: true }),
    },
    0,
  );
  const results = await writeResults(job, staged, new ResultOwnership(() => []));
  files = Object.fromEntries(results.map((r) => [r.format, r.path]));
  notes = results.find((r) => r.format === 'json')?.notes ?? [];
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = (format: string): string => readFileSync(files[format]!, 'utf8');
const spans = (pairs: Array<[number, number]>): void => {
  expect(pairs.length).toBeGreaterThan(0);
  pairs.forEach(([b, e], i) => {
    expect(e, `caption ${i + 1} ends after it begins`).toBeGreaterThan(b);
    if (i > 0) expect(b, `caption ${i + 1} begins after the one before ends`).toBeGreaterThanOrEqual(pairs[i - 1]![1]);
  });
};

interface Clip {
  offset: string;
  start: string;
  caption: Array<{ offset: string; duration: string }>;
  marker: Array<{ start: string; value: string }>;
}
/** An FCPXML time (`N/25s`, `Ns`, `0s`) in frames, exactly. */
const frames = (t: string): number => {
  const m = /^(\d+)(?:\/(\d+))?s$/.exec(t)!;
  const n = Number(m[1]) * FPS;
  const d = Number(m[2] ?? '1');
  expect(n % d).toBe(0);
  return n / d;
};

describe('a 25 fps clip at 23:59:50:00 with speech across midnight', () => {
  it('the job says its timeline starts an hour earlier, and why', () => {
    expect(notes).toEqual([expect.stringMatching(/23:59:50:00 runs past midnight.*1 hour earlier, at 22:59:50:00/)]);
  });

  it('every format’s captions are in order, each ending after it begins, and they agree', () => {
    const start = SOURCE - HOUR;
    const itt = [...read('itt').matchAll(/<p begin="([^"]+)" end="([^"]+)"/g)].map((m): [number, number] => [
      at(m[1]!),
      at(m[2]!),
    ]);
    spans(itt);
    // Speech after midnight is captioned (the last word ends at 19.2 s, past 24:00:00:00 on the source).
    expect(itt[itt.length - 1]![1]).toBeGreaterThan(start + 10 * FPS);
    const avid = [...read('avid').matchAll(/^(\d\d:\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d:\d\d)$/gm)].map(
      (m): [number, number] => [at(m[1]!), at(m[2]!)],
    );
    expect(avid).toEqual(itt);

    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, files.fcpxml!], { stdio: 'pipe' });
    const clip = (
      xml.parse(read('fcpxml')) as {
        fcpxml: { library: { event: { project: { sequence: { spine: { 'asset-clip': Clip } } } } } };
      }
    ).fcpxml.library.event.project.sequence.spine['asset-clip'];
    // The clip sits on the timeline at its offset; captions are in the media's own time from its start.
    const onTimeline = (t: string): number => frames(clip.offset) + frames(t) - frames(clip.start);
    expect(frames(clip.start)).toBe(SOURCE);
    expect(frames(clip.offset)).toBe(start);
    expect(
      clip.caption.map((c): [number, number] => [onTimeline(c.offset), onTimeline(c.offset) + frames(c.duration)]),
    ).toEqual(itt);

    const ttml = [...read('ttml').matchAll(/<p begin="([^"]+)" end="([^"]+)"/g)].map((m): [number, number] => {
      const ms = (t: string): number => {
        const [h, mi, s] = t.split(':').map(Number) as [number, number, number];
        return Math.round(((h * 60 + mi) * 60 + s) * 1000);
      };
      return [start + Math.floor((ms(m[1]!) * FPS) / 1000), start + Math.floor((ms(m[2]!) * FPS) / 1000)];
    });
    expect(ttml).toEqual(itt);
    const srt = [...read('srt').matchAll(/^(\S+) --> (\S+)$/gm)];
    expect(srt).toHaveLength(itt.length);
  });

  it('markers agree in FCPXML, xmeml and the EDL, and TXT and DOCX stamp the same labels, none going back', async () => {
    const clip = (
      xml.parse(read('fcpxml')) as {
        fcpxml: { library: { event: { project: { sequence: { spine: { 'asset-clip': Clip } } } } } };
      }
    ).fcpxml.library.event.project.sequence.spine['asset-clip'];
    const fcpx = clip.marker.map((m) => frames(clip.offset) + frames(m.start) - frames(clip.start));
    const edl = [...read('edl').matchAll(/^\d{3} .* (\S+) (\S+) {2}$/gm)].map((m) => at(m[1]!));
    expect(edl.length).toBeGreaterThan(4);
    expect(edl).toEqual(fcpx);
    edl.forEach((f, i) => i > 0 && expect(f).toBeGreaterThan(edl[i - 1]!));
    // Turns after midnight on the source are markers too.
    expect(edl[edl.length - 1]).toBeGreaterThan(SOURCE - HOUR + 10 * FPS);

    const stamps = (text: string): number[] => [...text.matchAll(/\[(\d\d:\d\d:\d\d:\d\d)\]/g)].map((m) => at(m[1]!));
    expect(stamps(read('txt'))).toEqual(edl);
    const docx = execFileSync('unzip', ['-p', files.docx!, 'word/document.xml']).toString();
    expect(stamps(docx)).toEqual(edl);
  });

  it.skipIf(!hasOtio)('OpenTimelineIO reads the EDL, xmeml and FCPXML with the same markers and starts', () => {
    const read = otioRead(files.edl!, files.premiere!, files.fcpxml!);
    const edl = [...readFileSync(files.edl!, 'utf8').matchAll(/^\d{3} .* (\S+) (\S+) {2}$/gm)].map((m) => at(m[1]!));
    expect(read.edl).toEqual(edl);
    // xmeml: the sequence on the moved timeline, its markers counted from there; the file at its own start.
    expect(read.xmeml.start).toBe(SOURCE - HOUR);
    expect(read.xmeml.markers.map((m) => read.xmeml.start + m)).toEqual(edl);
    expect(read.xmeml.clipStarts.every((s) => s === SOURCE)).toBe(true);
    // FCPXML: the clip's media from its own start, placed at the timeline's.
    expect(read.fcpx.clipStart).toBe(SOURCE);
    expect(read.fcpx.inParent).toBe(SOURCE - HOUR);
    expect(read.fcpx.markers.map((m) => read.fcpx.inParent + m - SOURCE)).toEqual(edl);
  });
});

interface OtioReading {
  edl: number[];
  xmeml: { start: number; markers: number[]; clipStarts: number[] };
  fcpx: { clipStart: number; inParent: number; markers: number[] };
}

const READER = `
import json, sys
import opentimelineio as otio
from otio_cmx3600_adapter import cmx_3600
from otio_fcp_adapter import fcp_xml
from otio_fcpx_xml_adapter import fcpx_xml
edl, xmeml, fcpxml = sys.argv[1:4]
f = lambda t: round(t.to_frames())
e = cmx_3600.read_from_string(open(edl).read(), rate=25)
clips = [c for c in e.tracks[0] if isinstance(c, otio.schema.Clip)]
p = fcp_xml.read_from_string(open(xmeml).read())
x = fcpx_xml.read_from_string(open(fcpxml).read())
xt = x if isinstance(x, otio.schema.Timeline) else list(x.find_children(descended_from_type=otio.schema.Timeline))[0]
xc = list(xt.find_clips())[0]
print(json.dumps({
  'edl': [f(c.source_range.start_time) for c in clips],
  'xmeml': {'start': f(p.global_start_time), 'markers': [f(m.marked_range.start_time) for m in p.tracks.markers],
            'clipStarts': [f(c.source_range.start_time) for c in p.find_clips()]},
  'fcpx': {'clipStart': f(xc.source_range.start_time), 'inParent': f(xc.range_in_parent().start_time),
           'markers': [f(m.marked_range.start_time) for m in xc.markers]},
}))
`;

/** OpenTimelineIO's reading of the three files. */
function otioRead(edl: string, xmeml: string, fcpxml: string): OtioReading {
  return runOtio<OtioReading>(READER, [edl, xmeml, fcpxml], dir);
}
