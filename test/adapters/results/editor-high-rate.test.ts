// Sony clips shot at high frame rates: the MP4 (made by ffmpeg, no timecode track) runs at 59.94p
// or 50p while its NonRealTimeMeta sidecar counts the LTC at 30 or 25 with `halfStep="true"`. Every
// editor format must run at the picture's rate, the start converted (each LTC frame is two of the
// picture's). A sidecar that does not read, or that gives a timecode no clock shows, is said in the
// job and the clip starts at 00:00:00:00. The media is read by the writer's own probe.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import Timecode from 'smpte-timecode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultOwnership, writeResults } from '../../../main/adapters/results/write-results.js';
import { createJob } from '../../../main/engine/job.js';
import { OUTPUT } from '../../../main/engine/settings.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';

const FIXTURE = new URL('../../fixtures/captions/two-speakers.json', import.meta.url);
const FIRST_WORD_MS = 420;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

let dir: string;

/** A Sony card's clip: an MP4 at `rate` with no timecode track, and its sidecar. */
async function sonyClip(name: string, rate: string, table: string, formatFps: string): Promise<string> {
  const media = path.join(dir, `${name}.MP4`);
  execFileSync('ffmpeg', [
    ...[
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=160x120:rate=${rate}:duration=2`,
    ],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', media],
  ]);
  await writeFile(
    path.join(dir, `${name}M01.XML`),
    `<?xml version="1.0" encoding="UTF-8"?>
<NonRealTimeMeta xmlns="urn:schemas-professionalDisc:nonRealTimeMeta:ver.2.20" lastUpdate="2026-09-18T12:18:24+06:00">
\t<Duration value="120"/>
\t${table}
\t<VideoFormat>
\t\t<VideoFrame videoCodec="AVC_1920_1080_HP@L42" captureFps="${formatFps}" formatFps="${formatFps}"/>
\t</VideoFormat>
</NonRealTimeMeta>
`,
  );
  return media;
}

const ltcTable = (tcFps: number, value: string): string =>
  `<LtcChangeTable tcFps="${tcFps}" halfStep="true">
\t\t<LtcChange frameCount="0" value="${value}" status="increment"/>
\t\t<LtcChange frameCount="119" value="${value}" status="end"/>
\t</LtcChangeTable>`;

/** Every editor format written for `media` by the results writer, and the job's notes. */
async function written(media: string): Promise<{ text: (f: string) => Promise<string>; notes: string[] }> {
  const staged = `${media}.export.json`;
  await copyFile(FIXTURE, staged);
  const job = createJob(
    {
      id: `job-${path.basename(media)}`,
      source: { path: media, size: 1, mtimeMs: 1 },
      origin: { kind: 'manual' },
      seq: 1,
      templateId: TEMPLATE_IDS.diarization,
      params: {},
      output: OUTPUT.parse({ formats: ['fcpxml', 'itt', 'edl', 'premiere', 'avid'] }),
    },
    0,
  );
  const results = await writeResults(job, staged, new ResultOwnership(() => []));
  return {
    text: (f) => readFile(results.find((r) => r.format === f)!.path, 'utf8'),
    notes: results.find((r) => r.format === 'json')?.notes ?? [],
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-high-rate-'));
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Seq {
  rate: { timebase: number; ntsc: string };
  timecode: { string: string; frame: number };
}

describe.each([
  {
    clip: 'C0003',
    picture: '60000/1001',
    // 12:34:56;10 drop-frame at 30 (BCD FF SS MM HH, 0x40 in the frames byte for drop frame).
    table: ltcTable(30, '50563412'),
    formatFps: '59.94p',
    ltc: ['12:34:56;10', [30000, 1001], true] as const,
    expected: { num: 60000, den: 1001, dropFrame: true, label: '12:34:56;20' },
  },
  {
    clip: 'C0004',
    picture: '50',
    table: ltcTable(25, '00000010'),
    formatFps: '50p',
    ltc: ['10:00:00:00', [25, 1], false] as const,
    expected: { num: 50, den: 1, dropFrame: false, label: '10:00:00:00' },
  },
])(
  'a $formatFps Sony clip whose sidecar counts in pairs (halfStep)',
  ({ clip, picture, table, formatFps, ltc, expected }) => {
    it('every editor format runs at the picture’s rate, the start converted', async () => {
      const { num, den, dropFrame, label } = expected;
      const out = await written(await sonyClip(clip, picture, table, formatFps));
      const at = (tc: string): number => new Timecode(tc, [num, den], dropFrame).frameCount;
      // The same moment: the LTC's frame count doubled is the picture rate's count of the same label.
      const start = new Timecode(ltc[0], [...ltc[1]], ltc[2]).frameCount * 2;
      expect(at(label)).toBe(start);
      const first = start + Math.floor((FIRST_WORD_MS * num) / (den * 1000));

      const fcpxml = xml.parse(await out.text('fcpxml')) as {
        fcpxml: {
          resources: { format: { frameDuration: string }; asset: { start: string } };
          library: { event: { project: { sequence: { tcStart: string; tcFormat: string } } } };
        };
      };
      expect(fcpxml.fcpxml.resources.format.frameDuration).toBe(`${den}/${num}s`);
      expect(fcpxml.fcpxml.resources.asset.start).toBe(`${start * den}/${num}s`);
      expect(fcpxml.fcpxml.library.event.project.sequence).toMatchObject({
        tcStart: `${start * den}/${num}s`,
        tcFormat: dropFrame ? 'DF' : 'NDF',
      });

      const itt = await out.text('itt');
      expect(itt).toContain(`ttp:frameRate="${Math.round(num / den)}"`);
      expect(itt.includes('ttp:frameRateMultiplier="1000 1001"')).toBe(den === 1001);
      expect(itt).toContain(`ttp:dropMode="${dropFrame ? 'dropNTSC' : 'nonDrop'}"`);
      const begin = /<p begin="([^"]+)"/.exec(itt)![1]!;
      expect(at(dropFrame ? begin.replace(/:(\d\d)$/, ';$1') : begin)).toBe(first);

      const xmeml = xml.parse(await out.text('premiere')) as {
        xmeml: { sequence: Seq & { media: { video: { track: { clipitem: { file: Seq } } } } } };
      };
      const seq = xmeml.xmeml.sequence;
      for (const s of [seq, seq.media.video.track.clipitem.file]) {
        expect(s.rate).toEqual({ timebase: Math.round(num / den), ntsc: den === 1001 ? 'TRUE' : 'FALSE' });
        expect(s.timecode).toMatchObject({ string: label, frame: start });
      }

      const edl = await out.text('edl');
      expect(edl).toContain(`FCM: ${dropFrame ? 'DROP FRAME' : 'NON-DROP FRAME'}`);
      expect(at(/^001 .* (\S+) \S+ {2}$/m.exec(edl)![1]!)).toBe(first);
      expect(at(/^(\d\d:\d\d:\d\d[:;]\d\d) /m.exec(await out.text('avid'))![1]!)).toBe(first);
      expect(out.notes).toEqual([]);
    }, 60_000);
  },
);

describe('a Sony sidecar that gives no start', () => {
  it.each([
    ['C0005', ltcTable(30, '5A563412'), /C0005M01\.XML gives the timecode "5A563412", which is not one/],
    ['C0006', ltcTable(25, '00000027'), /27:00:00:00 does not exist at 25 fps.*hours 00–23/],
    ['C0007', '<LtcChangeTable halfStep="true"></LtcChangeTable>', /C0007M01\.XML has no LtcChangeTable with a tcFps/],
  ])(
    '%s: the job says why, and the clip starts at 00:00:00:00',
    async (clip, table, why) => {
      const out = await written(await sonyClip(clip, '25', table, '25p'));
      expect(out.notes).toHaveLength(1);
      expect(out.notes[0]).toMatch(why);
      expect(out.notes[0]).toMatch(/start is taken as 00:00:00:00/);
      const first = Math.floor((FIRST_WORD_MS * 25) / 1000);
      expect(/^001 .* (\S+) \S+ {2}$/m.exec(await out.text('edl'))![1]).toBe(
        `00:00:00:${String(first).padStart(2, '0')}`,
      );
    },
    60_000,
  );
});
