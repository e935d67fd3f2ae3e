// A string-out with a gap and a title card, written by every format and read back by independent
// readers (OpenTimelineIO's own, and its xmeml, CMX 3600 and FCPXML adapters: ../shared/tools/otio;
// Apple's DTD with xmllint): the bites after them start later by their lengths, every reader agrees.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { MediaFacts } from '../../../main/engine/media-facts.js';
import { renderStringOutEdl } from '../../../main/engine/selects/edl.js';
import { renderStringOutFcpxml } from '../../../main/engine/selects/fcpxml.js';
import { editList } from '../../../main/engine/selects/list-edits.js';
import { renderOtio } from '../../../main/engine/selects/otio.js';
import { addSelect, emptyList } from '../../../main/engine/selects/selects.js';
import { stringOut, type ClipSource } from '../../../main/engine/selects/string-out.js';
import { renderStringOutXmeml } from '../../../main/engine/selects/xmeml.js';
import type { Transcript, TranscriptWord } from '../../../main/engine/transcript/transcript.js';
import { hasOtio, runOtio } from '../../helpers/otio.js';

const DTD = fileURLToPath(new URL('../../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));

const READER = `
import json, sys
import opentimelineio as otio
from otio_cmx3600_adapter import cmx_3600
from otio_fcp_adapter import fcp_xml
from otio_fcpx_xml_adapter import fcpx_xml
base = sys.argv[1]
s = lambda t: t.to_seconds()
def items(track):
    out = []
    for c in track:
        r = c.range_in_parent()
        out.append({'clip': isinstance(c, otio.schema.Clip), 'name': c.name, 'recIn': s(r.start_time), 'recOut': s(r.end_time_exclusive()),
                    'markers': [m.name for m in c.markers]})
    return out
t = otio.adapters.read_from_file(base + '.otio')
p = fcp_xml.read_from_string(open(base + '.premiere.xml').read())
e = cmx_3600.read_from_string(open(base + '.edl').read(), rate=25)
x = fcpx_xml.read_from_string(open(base + '.fcpxml').read())
xt = x if isinstance(x, otio.schema.Timeline) else list(x.find_children(descended_from_type=otio.schema.Timeline))[0]
print(json.dumps({
  'otio': [items(k) for k in t.tracks],
  'xmeml': [items(k) for k in p.tracks],
  'edl': [items(k) for k in e.tracks],
  'fcpx': [items(k) for k in xt.tracks],
}))
`;

interface Item {
  clip: boolean;
  name: string;
  recIn: number;
  recOut: number;
  markers: string[];
}
type Reading = Record<'otio' | 'xmeml' | 'edl' | 'fcpx', Item[][]>;

function transcriptOf(text: string): Transcript {
  const words: TranscriptWord[] = text.split(' ').map((w, i) => ({
    text: w,
    startMs: 1000 + i * 500,
    endMs: 1400 + i * 500,
    speaker: 'S0',
    spaceBefore: true,
    corrected: false,
  }));
  return { words, speakers: ['S0'], names: {}, text };
}

const pal = { num: 25, den: 1, dropFrame: false };
const facts: MediaFacts = {
  durationMs: 60_000,
  hasAudio: true,
  videoRate: pal,
  frameSize: { width: 160, height: 120 },
  start: { kind: 'frames', frames: 90_000, rate: pal, from: 'tmcd' },
};

const dir = mkdtempSync(path.join(tmpdir(), 'sluice-spacers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a string-out with a gap and a title card, read back', () => {
  it.skipIf(!hasOtio)('places the bites after them later by their lengths in every reader', () => {
    const t = transcriptOf('we start with the budget and then the schedule');
    const clips = new Map<string, ClipSource>([
      ['j1', { jobId: 'j1', path: path.join(dir, 'cam.mov'), transcript: t, facts }],
    ]);
    let list = emptyList('Spaced');
    list = addSelect(list, t, { id: 's1', jobId: 'j1', range: [0, 2], label: 'One' });
    list = addSelect(list, t, { id: 's2', jobId: 'j1', range: [2, 5], label: 'Two' });
    list = addSelect(list, t, { id: 's3', jobId: 'j1', range: [5, 9], label: 'Three' });
    list = editList(list, { kind: 'addSpacer', spacer: { id: 'g', kind: 'gap', ms: 2000 }, after: 's1' });
    list = editList(list, {
      kind: 'addSpacer',
      spacer: { id: 't', kind: 'title', ms: 3000, text: 'Part two' },
      after: 's2',
    });
    const so = stringOut(list, clips);
    const base = path.join(dir, 'Spaced');
    writeFileSync(`${base}.otio`, renderOtio(so));
    writeFileSync(`${base}.fcpxml`, renderStringOutFcpxml(so));
    writeFileSync(`${base}.premiere.xml`, renderStringOutXmeml(so));
    writeFileSync(`${base}.edl`, renderStringOutEdl(so));
    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, `${base}.fcpxml`], { stdio: 'pipe' });

    const sec = (frames: number): number => frames / 25;
    const want = so.bites.map((b) => ({ name: b.label, recIn: sec(b.recordIn), recOut: sec(b.recordOut) }));
    // Bite 2 starts 2 s after bite 1 ends, bite 3 3 s after bite 2.
    expect(want[1]!.recIn - want[0]!.recOut).toBe(2);
    expect(want[2]!.recIn - want[1]!.recOut).toBe(3);
    const read = runOtio<Reading>(READER, [base], dir);
    const clipsOf = (track: Item[]) =>
      track.filter((i) => i.clip).map(({ name, recIn, recOut }) => ({ name, recIn, recOut }));
    for (const [what, tracks] of Object.entries(read)) {
      expect(tracks.length, what).toBeGreaterThan(0);
      for (const track of tracks) {
        // OpenTimelineIO's FCPXML reader counts from 00:00:00:00: the sequence's tcStart (01:00:00:00)
        // is a gap before the first clip there.
        const from = what === 'fcpx' ? 3600 : 0;
        const got = clipsOf(track).map((g) => ({ ...g, recIn: g.recIn - from, recOut: g.recOut - from }));
        // The EDL names its clips after the file (its comment), the others after the bite.
        expect(
          got.map((g) => ({ ...g, name: what === 'edl' ? want[got.indexOf(g)]!.name : g.name })),
          `${what} ${JSON.stringify(track)}`,
        ).toEqual(want.map((w) => ({ ...w, recIn: expect.closeTo(w.recIn, 3), recOut: expect.closeTo(w.recOut, 3) })));
      }
    }
    // The title card: a Gap named after its text, with a marker holding it (OTIO).
    const gaps = read.otio[0]!.filter((i) => !i.clip);
    expect(gaps.map((g) => [g.name, g.markers, g.recOut - g.recIn])).toEqual([
      ['', [], 2],
      ['TITLE: Part two', ['Part two'], 3],
    ]);
  });
});
