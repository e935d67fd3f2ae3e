// A four-hour interview of 1,900 speaker turns, written for Resolve, Final Cut and Premiere on a
// 29.97 drop-frame timeline starting at 01:00:00;00. A CMX 3600 EDL numbers its events with three
// digits, so Resolve's markers come in two files of at most 999 events, each a whole EDL on the
// same start; read back with OpenTimelineIO's CMX 3600 reader (../shared/tools/otio), together
// they hold every marker FCPXML holds, on the same frames, and the job names both files and says
// why. Written again from a shorter transcript, the second file goes and the note with it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import Timecode from 'smpte-timecode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeSuperseded } from '../../../main/adapters/results/supersede.js';
import { ResultOwnership, writeResults } from '../../../main/adapters/results/write-results.js';
import { createJob, type JobRecord, type ResultFile } from '../../../main/engine/job.js';
import { OUTPUT } from '../../../main/engine/settings.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';
import { makeMediaDir, makeToneWav } from '../../helpers/media.js';
import { hasOtio, runOtio } from '../../helpers/otio.js';

const DTD = fileURLToPath(new URL('../../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));
const TURNS = 1900;
const FOUR_HOURS_MS = 4 * 3600 * 1000;
const START = new Timecode('01:00:00;00', 29.97, true).frameCount;
/** A DF label's frame count, independently of the engine. */
const at = (tc: string): number => new Timecode(tc, 29.97, true).frameCount;

let dir: string;
let job: JobRecord;
let results: ResultFile[];
const owned = new ResultOwnership(() => []);

/** Two people taking turns of three words, a turn every 7.5 s over four hours. */
function exportText(turns: number): string {
  const step = Math.floor(FOUR_HOURS_MS / TURNS);
  const words = Array.from({ length: turns * 3 }, (_, i) => {
    const turn = Math.floor(i / 3);
    const start = 300 + turn * step + (i % 3) * 400;
    return {
      word: ` w${i}${i % 3 === 2 ? '.' : ''}`,
      start,
      end: start + 350,
      confidence: 0.9,
      language: 'en',
      speakers: [turn % 2 === 0 ? 'SPEAKER_0' : 'SPEAKER_1'],
      speakersOverlap: false,
    };
  });
  return JSON.stringify({ transcription: { text: words.map((w) => w.word).join(''), words } });
}

async function write(turns: number): Promise<ResultFile[]> {
  const staged = path.join(dir, `staged-${turns}.json`);
  await writeFile(staged, exportText(turns));
  const written = await writeResults(job, staged, owned);
  owned.record(written, job.id);
  return written;
}

const edlPaths = (rs: readonly ResultFile[]): string[] => rs.filter((r) => r.format === 'edl').map((r) => r.path);
const events = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^\d{3} .* (\S+) (\S+) {2}$/gm)].map((m) => m[1]!);
const notesOf = (rs: readonly ResultFile[]): string[] => rs.find((r) => r.format === 'json')?.notes ?? [];

/** FCPXML's markers as timeline frames: the clip's offset plus each marker's place in the media, exactly. */
function fcpxmlMarkerFrames(file: string): number[] {
  const frames = (t: string): number => {
    const m = /^(\d+)(?:\/(\d+))?s$/.exec(t)!;
    const n = Number(m[1]) * 30000;
    const d = Number(m[2] ?? '1') * 1001;
    expect(n % d).toBe(0);
    return n / d;
  };
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'marker' });
  const clip = (
    xml.parse(readFileSync(file, 'utf8')) as {
      fcpxml: {
        library: {
          event: {
            project: {
              sequence: {
                spine: { 'asset-clip': { offset: string; start: string; marker: Array<{ start: string }> } };
              };
            };
          };
        };
      };
    }
  ).fcpxml.library.event.project.sequence.spine['asset-clip'];
  return clip.marker.map((m) => frames(clip.offset) + frames(m.start) - frames(clip.start));
}

beforeAll(async () => {
  dir = await makeMediaDir('sluice-long-interview-');
  const media = await makeToneWav(dir, 'Four hours.wav', 2);
  job = {
    ...createJob(
      {
        id: 'job-four-hours',
        source: { path: media, size: 1, mtimeMs: 1 },
        origin: { kind: 'manual' },
        seq: 1,
        templateId: TEMPLATE_IDS.diarization,
        params: {},
        output: OUTPUT.parse({
          formats: ['fcpxml', 'edl', 'premiere'],
          timeline: { start: '01:00:00;00', defaultRate: '29.97df' },
        }),
      },
      0,
    ),
    mediaDurationMs: FOUR_HOURS_MS,
  };
  results = await write(TURNS);
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a four-hour interview of 1,900 turns, for Resolve', () => {
  it('the markers are in two EDL files of at most 999 events, each a whole EDL on the timeline’s start', () => {
    const files = edlPaths(results);
    expect(files.map((f) => path.basename(f))).toEqual(['Four hours.edl', 'Four hours.markers-2.edl']);
    const [first, second] = files.map(events);
    expect([first!.length, second!.length]).toEqual([999, TURNS - 999]);
    files.forEach((f, i) => {
      const text = readFileSync(f, 'utf8');
      expect(text).toMatch(new RegExp(`^TITLE: Four hours part ${i + 1} of 2\nFCM: DROP FRAME\n\n001  `));
    });
    // Both on the same timeline: the second file goes on where the first stops.
    expect(at(first![0]!)).toBeGreaterThanOrEqual(START);
    expect(at(second![0]!)).toBeGreaterThan(at(first![998]!));
  });

  it('the job names both files and says why', () => {
    expect(notesOf(results)).toEqual([
      expect.stringMatching(
        /^1900 markers are more than one CMX 3600 EDL holds .*999 at most.* 2 files, each on the same timeline start: Four hours\.edl, Four hours\.markers-2\.edl\./,
      ),
    ]);
  });

  it('together the EDLs hold every marker FCPXML holds, on the same frames; the FCPXML is valid', () => {
    const fcpxml = results.find((r) => r.format === 'fcpxml')!.path;
    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, fcpxml], { stdio: 'pipe' });
    const fcpx = fcpxmlMarkerFrames(fcpxml);
    expect(fcpx).toHaveLength(TURNS);
    expect(edlPaths(results).flatMap(events).map(at)).toEqual(fcpx);
  });

  it.skipIf(!hasOtio)(
    'OpenTimelineIO reads each EDL alone, and together they hold every marker, on FCPXML’s frames',
    () => {
      const read = runOtio<Array<{ clips: number; sources: number[]; places: number[] }>>(
        `
import json, sys
import opentimelineio as otio
from otio_cmx3600_adapter import cmx_3600
out = []
for name in sys.argv[1:]:
    t = cmx_3600.read_from_string(open(name).read(), rate=30000/1001)
    clips = [c for c in t.tracks[0] if isinstance(c, otio.schema.Clip)]
    out.append({'clips': len(clips), 'sources': [round(c.source_range.start_time.to_frames()) for c in clips],
                'places': [round(c.range_in_parent().start_time.to_frames()) for c in clips]})
print(json.dumps(out))
`,
        edlPaths(results),
        dir,
      );
      expect(read.map((r) => r.clips)).toEqual([999, TURNS - 999]);
      const fcpx = fcpxmlMarkerFrames(results.find((r) => r.format === 'fcpxml')!.path);
      // Each marker's timecode, and its place on the file's track (from the first event, the gaps
      // between records kept) as far from the first as FCPXML's markers are.
      expect(read.flatMap((r) => r.sources)).toEqual(fcpx);
      read.forEach((r) => {
        expect(r.places.map((p) => r.sources[0]! + p)).toEqual(r.sources);
      });
    },
  );

  it('written again with 500 turns: one EDL, the second file removed, no note', async () => {
    const fresh = await write(500);
    expect(edlPaths(fresh).map((f) => path.basename(f))).toEqual(['Four hours.edl']);
    expect(await removeSuperseded(results, fresh)).toEqual([]);
    expect(existsSync(path.join(dir, 'Four hours.markers-2.edl'))).toBe(false);
    expect(events(path.join(dir, 'Four hours.edl'))).toHaveLength(500);
    expect(notesOf(fresh)).toEqual([]);
  });
});
