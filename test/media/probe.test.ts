// The media probe against media ffmpeg makes, checked against what ffprobe reports of the same file.
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMediaFacts, readMedia } from '../../main/media/probe.js';
import { makeMediaDir, makeMp3, makeToneWav } from '../helpers/media.js';

const run = promisify(execFile);
let dir: string;

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

interface Probed {
  format: { duration: string; tags?: Record<string, string> };
  streams: Array<{
    codec_type: string;
    r_frame_rate: string;
    width?: number;
    height?: number;
    tags?: Record<string, string>;
  }>;
}
async function ffprobe(file: string): Promise<Probed> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file]);
  return JSON.parse(stdout) as Probed;
}

const video = (rate: string, seconds: number): string[] => [
  '-f',
  'lavfi',
  '-i',
  `testsrc=size=160x120:rate=${rate}:duration=${seconds}`,
  '-f',
  'lavfi',
  '-i',
  `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
];

beforeAll(async () => {
  dir = await makeMediaDir('sluice-probe-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('probeMediaFacts', () => {
  it('refuses a timecode track at 27:00:00:00 (as ffprobe reads it) with a note: no start, not a wrapped one', async () => {
    const file = join(dir, 'patched.mov');
    await ffmpeg([...video('25', 1), '-timecode', '27:00:00:00', '-c:v', 'libx264', '-preset', 'ultrafast', file]);
    const ref = await ffprobe(file);
    expect(ref.streams.find((s) => s.tags?.timecode)?.tags?.timecode).toBe('27:00:00:00');
    const facts = await probeMediaFacts(file);
    expect(facts.start).toBeNull();
    expect(facts.startNote).toMatch(/27:00:00:00 does not exist at 25 fps.*hours 00–23.*start is taken as 00:00:00:00/);
  });

  it('reads a QuickTime .mov with audio: duration, 23.976 rate and its tmcd start, as ffprobe does', async () => {
    const file = join(dir, 'A001_C002.mov');
    await ffmpeg([
      ...video('24000/1001', 4),
      '-timecode',
      '01:00:00:00',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      '-shortest',
      file,
    ]);
    const ref = await ffprobe(file);
    const facts = await probeMediaFacts(file);
    expect(facts.durationMs).toBeCloseTo(Number(ref.format.duration) * 1000, -2);
    expect(facts.hasAudio).toBe(true);
    expect(ref.streams.find((s) => s.codec_type === 'video')?.r_frame_rate).toBe('24000/1001');
    expect(facts.videoRate).toEqual({ num: 24000, den: 1001, dropFrame: false });
    const picture = ref.streams.find((s) => s.codec_type === 'video');
    expect(facts.frameSize).toEqual({ width: picture?.width, height: picture?.height });
    expect(facts.frameSize).toEqual({ width: 160, height: 120 });
    expect(ref.streams.find((s) => s.codec_type === 'data')?.tags?.timecode).toBe('01:00:00:00');
    // 1 h at 24 nominal frames a second.
    expect(facts.start).toEqual({
      kind: 'frames',
      frames: 86_400,
      rate: { num: 24000, den: 1001, dropFrame: false },
      from: 'tmcd',
    });
  });

  it('reads a 29.97 drop-frame MP4: its tmcd start counted without the dropped frame numbers', async () => {
    const file = join(dir, 'C0001.MP4');
    await ffmpeg([
      ...video('30000/1001', 3),
      '-timecode',
      '00:59:50;00',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      '-shortest',
      file,
    ]);
    const ref = await ffprobe(file);
    const facts = await probeMediaFacts(file);
    expect(facts.durationMs).toBeCloseTo(Number(ref.format.duration) * 1000, -2);
    expect(ref.streams.find((s) => s.codec_type === 'video')?.tags?.timecode).toBe('00:59:50;00');
    expect(facts.videoRate).toEqual({ num: 30000, den: 1001, dropFrame: false });
    // 59 min 50 s at 30 nominal = 107,700 frame numbers, less 2 for each of the 54 minutes not divisible by ten.
    expect(facts.start).toEqual({
      kind: 'frames',
      frames: 107_700 - 108,
      rate: { num: 30000, den: 1001, dropFrame: true },
      from: 'tmcd',
    });
  });

  it('reads a Broadcast WAV: duration and its bext TimeReference in samples', async () => {
    const file = join(dir, 'ZOOM0001_LR.WAV');
    const samples = 172_800_017; // one hour at 48 kHz and 17 samples
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000:duration=2',
      '-write_bext',
      '1',
      '-metadata',
      `time_reference=${samples}`,
      file,
    ]);
    const ref = await ffprobe(file);
    expect(ref.format.tags?.time_reference).toBe(String(samples));
    const facts = await probeMediaFacts(file);
    expect(facts.durationMs).toBe(Math.round(Number(ref.format.duration) * 1000));
    expect(facts).toMatchObject({
      hasAudio: true,
      videoRate: null,
      start: { kind: 'samples', samples, sampleRate: 48000, from: 'bext' },
    });
  });

  it('reads MXF: duration, rate and the material package timecode', async () => {
    const file = join(dir, 'A003C001.mxf');
    await ffmpeg([
      ...video('25', 3),
      '-timecode',
      '10:00:00:00',
      '-c:v',
      'mpeg2video',
      '-c:a',
      'pcm_s16le',
      '-shortest',
      file,
    ]);
    const ref = await ffprobe(file);
    expect(ref.format.tags?.timecode).toBe('10:00:00:00');
    const facts = await probeMediaFacts(file);
    expect(facts.durationMs).toBeCloseTo(Number(ref.format.duration) * 1000, -2);
    expect(facts).toMatchObject({
      hasAudio: true,
      videoRate: { num: 25, den: 1 },
      start: { kind: 'frames', frames: 900_000, from: 'mxf' },
    });
  });

  it('says nothing of a file with no timecode, and has durations for plain WAV and MP3', async () => {
    const wav = await makeToneWav(dir, 'tone.wav', 2);
    expect(await probeMediaFacts(wav)).toEqual({ durationMs: 2000, hasAudio: true, videoRate: null, start: null });
    const mp3 = await makeMp3(dir, 'tone.mp3', 2);
    const facts = await probeMediaFacts(mp3);
    expect(facts.durationMs).toBeGreaterThan(1900);
    expect(facts.durationMs).toBeLessThan(2200);
    expect(facts.start).toBeNull();
  });

  it('knows no facts of text, and reads the comment tag the sandbox uses', async () => {
    const text = join(dir, 'placeholder_not_video.mp4');
    await writeFile(text, 'not a video at all\n'.repeat(50));
    expect(await probeMediaFacts(text)).toEqual({ durationMs: null, hasAudio: false, videoRate: null, start: null });
    const tagged = join(dir, 'tagged.wav');
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'sine=duration=1',
      '-metadata',
      'comment=sluice-sandbox-duration-ms=5000',
      tagged,
    ]);
    expect((await readMedia(tagged)).comment).toBe('sluice-sandbox-duration-ms=5000');
  });

  it('probes several files at once', async () => {
    const files = await Promise.all([1, 2, 3].map((s) => makeToneWav(dir, `p${s}.wav`, s)));
    const facts = await Promise.all(files.map((f) => probeMediaFacts(f)));
    expect(facts.map((f) => f.durationMs)).toEqual([1000, 2000, 3000]);
  });
});
