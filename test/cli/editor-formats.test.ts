// The promise, end to end through the built CLI: from a 23.976 MOV whose timecode track
// starts at 01:00:00:00, a 29.97 drop-frame MP4 at 00:59:50;00 and a BWF WAV stamped 10:00:00
// (all made by ffmpeg), `sluice process` and `sluice watch` write every editor format beside each
// file, anchored at its source timecode and on its frame grid. Each file is read back with a real
// parser (xmllint against Apple's DTD, fast-xml-parser, imsc.js, smpte-timecode, the SRT parser)
// and checked against frames computed here from the SRT's media times.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { fromXML } from 'imsc/src/main/js/doc.js';
import Timecode from 'smpte-timecode';
import { parseSync, type NodeCue } from 'subtitle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMediaDir } from '../helpers/media.js';
import { buildCli, runCli, startCli } from './run-cli.js';

const DTD = fileURLToPath(new URL('../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));
const FORMATS = 'json,srt,fcpxml,itt,ttml,edl,premiere,avid';
const ENDINGS = ['json', 'srt', 'fcpxml', 'itt', 'ttml', 'edl', 'premiere.xml', 'avid.txt'];
const BWF_SAMPLES = 10 * 3600 * 48_000;

interface Rate {
  num: number;
  den: number;
  dropFrame: boolean;
}
interface Medium {
  file: string;
  /** The rate and start the editor formats must use, as the oracle counts them. */
  rate: Rate;
  startFrame: number;
}

const r23: Rate = { num: 24000, den: 1001, dropFrame: false };
const df30: Rate = { num: 30000, den: 1001, dropFrame: true };
const pal: Rate = { num: 25, den: 1, dropFrame: false };
const df60: Rate = { num: 60000, den: 1001, dropFrame: true };
const oracle = (tc: string, r: Rate): number => new Timecode(tc, [r.num, r.den], r.dropFrame).frameCount;
/** Samples since midnight on a rate: the nearest frame of real time (exact, in integers). */
const bwfFrame = (r: Rate): number => {
  const n = BigInt(BWF_SAMPLES) * BigInt(r.num);
  const d = 48_000n * BigInt(r.den);
  return Number((2n * n + d) / (2n * d));
};

const MEDIA: Medium[] = [
  { file: 'Camera A Día.mov', rate: r23, startFrame: oracle('01:00:00:00', r23) },
  { file: 'cam b.mp4', rate: df30, startFrame: oracle('00:59:50;00', df30) },
  { file: 'recorder.wav', rate: pal, startFrame: oracle('10:00:00:00', pal) },
];

let dir: string;
let sources: string;

const ff = (...args: string[]): void =>
  void execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

beforeAll(() => {
  buildCli();
}, 120_000);
beforeAll(async () => {
  dir = await makeMediaDir('sluice-cli-editor-');
  sources = path.join(dir, 'sources');
  mkdirSync(sources);
  const video = (rate: string, tc: string, file: string): void =>
    ff(
      ...['-f', 'lavfi', '-i', `testsrc=size=160x120:rate=${rate}:duration=8`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=8'],
      ...['-timecode', tc, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-shortest', path.join(sources, file)],
    );
  video('24000/1001', '01:00:00:00', 'Camera A Día.mov');
  video('30000/1001', '00:59:50;00', 'cam b.mp4');
  ff(
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=8', '-write_bext', '1'],
    ...['-metadata', `time_reference=${BWF_SAMPLES}`, path.join(sources, 'recorder.wav')],
  );
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => ['caption', 'marker', 'p'].includes(name),
});
type Attrs = Record<string, string>;

/** An FCPXML time → frames, failing unless it sits exactly on the rate's frame grid. */
function gridFrames(time: string, r: Rate): number {
  const m = /^(\d+)(?:\/(\d+))?s$/.exec(time);
  if (!m) throw new Error(`not an FCPXML time: ${time}`);
  const n = BigInt(m[1]!) * BigInt(r.num);
  const d = BigInt(m[2] ?? '1') * BigInt(r.den);
  expect(n % d, `${time} is off the ${r.num}/${r.den} grid`).toBe(0n);
  return Number(n / d);
}

const floorFrame = (ms: number, r: Rate): number => Number((BigInt(ms) * BigInt(r.num)) / (BigInt(r.den) * 1000n));
const ceilFrame = (ms: number, r: Rate): number => {
  const d = BigInt(r.den) * 1000n;
  return Number((BigInt(ms) * BigInt(r.num) + d - 1n) / d);
};

/** Every editor format beside `media`, read back and held to the start, rate and the SRT's times. */
function checkBeside(media: string, m: Medium): void {
  const base = media.slice(0, -path.extname(media).length);
  for (const ending of ENDINGS) expect(existsSync(`${base}.${ending}`), `${base}.${ending}`).toBe(true);
  const read = (ending: string): string => readFileSync(`${base}.${ending}`, 'utf8');
  const { rate: r, startFrame } = m;

  // The captions' frames, from the SRT (media time) by the rounding policy: starts down, ends up.
  const cues = parseSync(read('srt'))
    .filter((n): n is NodeCue => n.type === 'cue')
    .map((c) => c.data);
  expect(cues.length).toBeGreaterThan(0);
  const expected = cues.map((c) => ({ start: floorFrame(c.start, r), end: ceilFrame(c.end, r) }));
  const firstMarker = expected[0]!.start;

  // Final Cut Pro: valid against the DTD of the version it declares, the media linked, on the grid.
  execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, `${base}.fcpxml`], { stdio: 'pipe' });
  const fcp = (xml.parse(read('fcpxml')) as { fcpxml: Record<string, unknown> & { version: string } }).fcpxml;
  expect(fcp.version).toBe('1.8');
  const res = fcp.resources as { format: Attrs; asset: Attrs };
  expect(res.format.frameDuration).toBe(`${r.den}/${r.num}s`);
  // The generated video is 160 × 120; a custom format states its size (audio has none).
  expect([res.format.width, res.format.height]).toEqual(
    media.endsWith('.wav') ? [undefined, undefined] : ['160', '120'],
  );
  expect(gridFrames(res.asset.start!, r)).toBe(startFrame);
  expect(fileURLToPath(res.asset.src!)).toBe(media);
  const seq = (fcp.library as { event: { project: { sequence: Attrs & { spine: Record<string, unknown> } } } }).event
    .project.sequence;
  expect(seq.tcFormat).toBe(r.dropFrame ? 'DF' : 'NDF');
  const clip = seq.spine['asset-clip'] as Attrs & { caption: Attrs[]; marker: Attrs[] };
  expect(gridFrames(clip.start!, r)).toBe(startFrame);
  expect(clip.caption.map((c) => c.role)).toEqual(cues.map(() => 'iTT?captionFormat=ITT.en'));
  expect(
    clip.caption.map((c) => {
      const start = gridFrames(c.offset!, r) - startFrame;
      return { start, end: start + gridFrames(c.duration!, r) };
    }),
  ).toEqual(expected);
  expect(gridFrames(clip.marker[0]!.start!, r) - startFrame).toBe(firstMarker);

  // iTT: SMPTE time base, the nominal rate and its multiplier, source timecode without ';'.
  const tt = (xml.parse(read('itt')) as { tt: Attrs & { body: { div: { p: Attrs[] } } } }).tt;
  expect(tt['ttp:timeBase']).toBe('smpte');
  expect(Number(tt['ttp:frameRate'])).toBe(Math.round(r.num / r.den));
  expect(tt['ttp:frameRateMultiplier']).toBe(r.den === 1001 ? '1000 1001' : undefined);
  const ittFrames = (tc: string): number => {
    expect(tc).toMatch(/^\d\d:\d\d:\d\d:\d\d$/);
    return oracle(r.dropFrame ? tc.replace(/:(\d\d)$/, ';$1') : tc, r) - startFrame;
  };
  expect(tt.body.div.p.map((p) => ({ start: ittFrames(p.begin!), end: ittFrames(p.end!) }))).toEqual(expected);

  // TTML: loads in imsc.js without a complaint, in media time (the first caption's first frame).
  const problems: string[] = [];
  const handler = { error: (s: string) => !!problems.push(s), fatal: (s: string) => !!problems.push(s) };
  const ttml = fromXML(read('ttml'), handler);
  expect(problems).toEqual([]);
  const firstEvent = Math.min(...ttml!.getMediaTimeEvents().filter((t) => t > 0));
  expect(Math.abs(firstEvent - (expected[0]!.start * r.den) / r.num)).toBeLessThan(0.001);

  // Resolve: FCM as the media counts, one-frame marker events at the timeline timecode.
  const edl = read('edl');
  expect(edl.split('\n')[1]).toBe(`FCM: ${r.dropFrame ? 'DROP FRAME' : 'NON-DROP FRAME'}`);
  const event = /^001 +\S+ +V +C +\S+ \S+ (\S+) (\S+) *\n \|C:ResolveColor\w+ \|M:(.+) \|D:(\d+)$/m.exec(edl);
  expect(event, edl).not.toBeNull();
  expect(oracle(event![1]!, r) - startFrame).toBe(firstMarker);
  expect(oracle(event![2]!, r) - oracle(event![1]!, r)).toBe(1);
  expect(event![3]).not.toMatch(/^\d/);

  // Premiere: an xmeml sequence at the media's rate and timecode, its marker in sequence frames.
  const pr = (xml.parse(read('premiere.xml')) as { xmeml: { sequence: Record<string, unknown> } }).xmeml.sequence;
  const prRate = pr.rate as { timebase: number; ntsc: string };
  expect([prRate.timebase, prRate.ntsc]).toEqual([Math.round(r.num / r.den), r.den === 1001 ? 'TRUE' : 'FALSE']);
  const prTc = pr.timecode as { string: string; frame: number; displayformat: string };
  expect([oracle(prTc.string, r), prTc.frame, prTc.displayformat]).toEqual([
    startFrame,
    startFrame,
    r.dropFrame ? 'DF' : 'NDF',
  ]);
  expect((pr.marker as Array<{ in: number }>)[0]!.in).toBe(firstMarker);

  // Avid SubCap: its header, the subtitles between their tags, frame timecodes at the source timecode.
  const avid = read('avid.txt');
  expect(avid.split('\n')[0]).toBe('@ This file written with the Avid Caption plugin, version 1');
  const body = /<begin subtitles>\n([\s\S]*)\n<end subtitles>/.exec(avid)?.[1] ?? '';
  const times = [...body.matchAll(/^(\d\d:\d\d:\d\d[:;]\d\d) (\d\d:\d\d:\d\d[:;]\d\d)$/gm)];
  expect(times.map((t) => ({ start: oracle(t[1]!, r) - startFrame, end: oracle(t[2]!, r) - startFrame }))).toEqual(
    expected,
  );
}

describe('the editor formats from the command line', () => {
  it('sluice process writes every format beside each file, at its source timecode and on its grid', async () => {
    const folder = path.join(dir, 'processed');
    mkdirSync(folder);
    const files = MEDIA.map((m) => {
      copyFileSync(path.join(sources, m.file), path.join(folder, m.file));
      return path.join(folder, m.file);
    });
    const r = await runCli(
      ['process', ...files, '--sandbox', '--state-dir', path.join(dir, 'state-process'), '--formats', FORMATS],
      { SLUICE_SANDBOX_SPEED_FACTOR: '0.01' },
      undefined,
      90_000,
    );
    expect(r.code, r.out).toBe(0);
    MEDIA.forEach((m, i) => checkBeside(files[i]!, m));
  }, 120_000);

  it('sluice watch does the same for files arriving in a folder; --frame-rate counts media without a rate', async () => {
    const folder = path.join(dir, 'watched');
    mkdirSync(folder);
    const cli = startCli(
      [
        ...['watch', folder, '--sandbox', '--state-dir', path.join(dir, 'state-watch'), '--formats', FORMATS],
        ...['--timecode', 'source', '--frame-rate', '59.94df'],
      ],
      { SLUICE_SANDBOX_SPEED_FACTOR: '0.01' },
    );
    try {
      await cli.waitFor(/Watching/);
      for (const m of MEDIA) copyFileSync(path.join(sources, m.file), path.join(folder, m.file));
      for (const m of MEDIA) await cli.waitFor(new RegExp(`completed .*${m.file.replace('.', '\\.')}`), 60_000);
    } finally {
      const r = await cli.stop();
      expect(r.code, r.out).toBe(0);
    }
    // The videos keep their own rate and start; the WAV, which has no rate, is counted at 59.94 DF.
    const counted = MEDIA.map((m) => (m.rate === pal ? { ...m, rate: df60, startFrame: bwfFrame(df60) } : m));
    expect(new Timecode(counted[2]!.startFrame, [60000, 1001], true).toString().slice(0, 8)).toBe('10:00:00');
    counted.forEach((m) => checkBeside(path.join(folder, m.file), m));
  }, 150_000);
});
