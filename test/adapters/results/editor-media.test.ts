// From generated media to the editor's files: a 23.976 MOV with a timecode track at 01:00:00:00, a
// 29.97 drop-frame MP4 at 00:59:50;00 and a BWF WAV stamped 10:00:00 (ffmpeg writes the `tmcd`
// track and the `bext` chunk). Read once by ffprobe into MediaFacts, once by the writer's own
// media probe (mediainfo.js); every editor format must then start at that timecode.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import Timecode from 'smpte-timecode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultOwnership, writeResults } from '../../../main/adapters/results/write-results.js';
import { createJob } from '../../../main/engine/job.js';
import type { FrameRate, MediaFacts } from '../../../main/engine/media-facts.js';
import { OUTPUT } from '../../../main/engine/settings.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';

const FIXTURE = new URL('../../fixtures/captions/two-speakers.json', import.meta.url);
const DTD = fileURLToPath(new URL('../../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });
const ff = (...args: string[]): void =>
  void execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

let dir: string;

interface Probe {
  streams: Array<{ codec_type: string; codec_tag_string: string; r_frame_rate: string; tags?: { timecode?: string } }>;
  format: { tags?: { time_reference?: string } };
}

/** What ffprobe reads of a file, as MediaFacts (the shape the media probe reports). */
function probe(file: string): MediaFacts {
  const out = JSON.parse(
    execFileSync('ffprobe', [
      ...['-v', 'error', '-of', 'json', '-show_entries'],
      'stream=codec_type,codec_tag_string,r_frame_rate:stream_tags=timecode:format_tags=time_reference',
      file,
    ]).toString(),
  ) as Probe;
  const video = out.streams.find((s) => s.codec_type === 'video');
  const [num, den] = (video?.r_frame_rate ?? '0/1').split('/').map(Number) as [number, number];
  const tmcd = out.streams.find((s) => s.codec_tag_string === 'tmcd')?.tags?.timecode;
  const videoRate: FrameRate | null = video ? { num, den, dropFrame: false } : null;
  let start: MediaFacts['start'] = null;
  if (tmcd && videoRate) {
    const rate = { ...videoRate, dropFrame: tmcd.includes(';') };
    start = { kind: 'frames', frames: new Timecode(tmcd, [num, den], rate.dropFrame).frameCount, rate, from: 'tmcd' };
  } else if (out.format.tags?.time_reference) {
    start = { kind: 'samples', samples: Number(out.format.tags.time_reference), sampleRate: 48_000, from: 'bext' };
  }
  return { durationMs: 2000, hasAudio: out.streams.some((s) => s.codec_type === 'audio'), videoRate, start };
}

const MEDIA = [
  { file: 'camera a.mov', tc: '01:00:00:00', rate: [24000, 1001, false] as const },
  { file: 'camera b.mp4', tc: '00:59:50;00', rate: [30000, 1001, true] as const },
  { file: 'recorder.wav', tc: '10:00:00:00', rate: [25, 1, false] as const },
];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-editor-media-'));
  const video = (rate: string, tc: string, file: string): void =>
    ff(
      ...['-f', 'lavfi', '-i', `testsrc=size=160x120:rate=${rate}:duration=2`, '-c:v', 'libx264'],
      ...['-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-timecode', tc, path.join(dir, file)],
    );
  video('24000/1001', '01:00:00:00', 'camera a.mov');
  video('30000/1001', '00:59:50;00', 'camera b.mp4');
  // 10 hours after midnight at 48 kHz.
  ff(
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-ar', '48000', '-write_bext', '1'],
    ...['-metadata', `time_reference=${10 * 3600 * 48_000}`, path.join(dir, 'recorder.wav')],
  );
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(MEDIA)('$file', ({ file, tc, rate: [num, den, dropFrame] }) => {
  // Facts given (ffprobe, an independent reader) and facts left to the writer, which asks the media probe.
  it.each([
    ['read by ffprobe', true],
    ['read by the media probe', false],
  ])('every editor format starts at the timecode the file carries (%s)', async (_how, given) => {
    const source = path.join(dir, file);
    const staged = path.join(dir, `${file}.export.json`);
    await copyFile(FIXTURE, staged);
    const job = {
      ...createJob(
        {
          id: `job-${file}`,
          source: { path: source, size: 1, mtimeMs: 1 },
          origin: { kind: 'manual' },
          seq: 1,
          templateId: TEMPLATE_IDS.diarization,
          params: {},
          output: OUTPUT.parse({ formats: ['fcpxml', 'itt', 'edl', 'premiere', 'avid'] }),
        },
        0,
      ),
      ...(given ? { mediaFacts: probe(source) } : {}),
    };
    const results = await writeResults(job, staged, new ResultOwnership(() => []));
    const read = (format: string): Promise<string> => readFile(results.find((r) => r.format === format)!.path, 'utf8');
    const start = new Timecode(tc, [num, den], dropFrame).frameCount;

    const fcpxml = results.find((r) => r.format === 'fcpxml')!.path;
    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, fcpxml], { stdio: 'pipe' });
    const asset = (xml.parse(await readFile(fcpxml, 'utf8')) as { fcpxml: { resources: { asset: { start: string } } } })
      .fcpxml.resources.asset;
    expect(asset.start).toBe(den === 1 ? `${start}/${num}s` : `${start * den}/${num}s`);
    // The media probe reads the picture's size, and Final Cut's custom format states it.
    const format = (xml.parse(await readFile(fcpxml, 'utf8')) as { fcpxml: { resources: { format: object } } }).fcpxml
      .resources.format;
    const sized = !given && !file.endsWith('.wav');
    expect(format).toEqual({
      id: 'r1',
      frameDuration: `${den}/${num}s`,
      ...(sized ? { width: '160', height: '120' } : {}),
    });

    const seq = (xml.parse(await read('premiere')) as { xmeml: { sequence: { timecode: { string: string } } } }).xmeml
      .sequence;
    expect(seq.timecode.string).toBe(tc);
    // The first word is at 420 ms: every format's first time is that frame after the start.
    const first = start + Math.floor((420 * num) / (den * 1000));
    const itt = /<p begin="([^"]+)"/.exec(await read('itt'))![1]!;
    expect(new Timecode(dropFrame ? itt.replace(/:(\d\d)$/, ';$1') : itt, [num, den], dropFrame).frameCount).toBe(
      first,
    );
    const edl = /^001 .* (\S+) \S+ {2}$/m.exec(await read('edl'))![1]!;
    expect(new Timecode(edl, [num, den], dropFrame).frameCount).toBe(first);
    const avid = /^(\d\d:\d\d:\d\d[:;]\d\d) /m.exec(await read('avid'))![1]!;
    expect(new Timecode(avid, [num, den], dropFrame).frameCount).toBe(first);
  });
});
