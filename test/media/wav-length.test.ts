// A PCM WAV's length from its own chunks, against MediaInfo's reading of the same file: WAVs as
// ffmpeg writes them (16, 24 and float samples, six channels, a BWF bext chunk, RF64), and the ones
// left to MediaInfo (a-law, ADPCM, a header with no data size, a copy cut short, no WAV at all).
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMedia } from '../../main/media/probe.js';
import { pcmWavLengthOf } from '../../main/media/wav-length.js';
import { makeEncodedWav, makeMediaDir, makeMp3, pcmWav } from '../helpers/media.js';

let dir: string;

/** The length from the header, as the intake reads it: through one open handle. */
async function pcmWavLength(file: string): Promise<number | undefined> {
  const fh = await open(file, 'r');
  try {
    return await pcmWavLengthOf(fh, (await fh.stat()).size);
  } finally {
    await fh.close();
  }
}

const wav = (name: string, seconds: number, args: string[], rate = 48_000, channels = 1): Promise<string> =>
  makeEncodedWav(dir, name, seconds, { rate, channels, args });

beforeAll(async () => {
  dir = await makeMediaDir('sluice-wav-length-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('pcmWavLength', () => {
  it.each([
    { name: 's16-mono-8k.wav', seconds: 1.37, args: ['-c:a', 'pcm_s16le'], rate: 8000, channels: 1 },
    { name: 's24-stereo.wav', seconds: 2.5, args: ['-c:a', 'pcm_s24le'], rate: 48_000, channels: 2 },
    { name: 'f32.wav', seconds: 0.75, args: ['-c:a', 'pcm_f32le'], rate: 44_100, channels: 1 },
    { name: 'six-channels.wav', seconds: 1.2, args: ['-c:a', 'pcm_s16le'], rate: 48_000, channels: 6 },
    {
      name: 'bwf-bext.wav',
      seconds: 3.1,
      args: ['-c:a', 'pcm_s24le', '-write_bext', '1', '-metadata', 'time_reference=172800000'],
      rate: 48_000,
      channels: 2,
    },
    { name: 'rf64.wav', seconds: 1.5, args: ['-c:a', 'pcm_s16le', '-rf64', 'always'], rate: 48_000, channels: 1 },
  ])('$name: the length MediaInfo reads, to the millisecond', async ({ name, seconds, args, rate, channels }) => {
    const file = await wav(name, seconds, args, rate, channels);
    const fromHeader = await pcmWavLength(file);
    const fromProbe = (await readMedia(file)).facts.durationMs;
    expect(fromProbe).not.toBeNull();
    expect(fromHeader).toBeDefined();
    expect(Math.abs(fromHeader! - fromProbe!)).toBeLessThanOrEqual(1);
    expect(Math.abs(fromHeader! - seconds * 1000)).toBeLessThanOrEqual(1);
  });

  it.each([
    { name: 'alaw.wav', args: ['-c:a', 'pcm_alaw'], rate: 8000 },
    { name: 'adpcm.wav', args: ['-c:a', 'adpcm_ms'], rate: 22_050 },
  ])('$name: compressed samples are left to MediaInfo', async ({ name, args, rate }) => {
    const file = await wav(name, 1, args, rate);
    expect(await pcmWavLength(file)).toBeUndefined();
    expect((await readMedia(file)).facts.durationMs).not.toBeNull();
  });

  it('a header with no data size, a copy cut short and a file that is no WAV are left to the other checks', async () => {
    const streamed = pcmWav(16_000);
    streamed.writeUInt32LE(0xffffffff, 40);
    await writeFile(join(dir, 'streamed.wav'), streamed);
    expect(await pcmWavLength(join(dir, 'streamed.wav'))).toBeUndefined();

    await writeFile(join(dir, 'cut.wav'), pcmWav(16_000, { written: 4000 }));
    expect(await pcmWavLength(join(dir, 'cut.wav'))).toBeUndefined();
    // The same header, whole: one second.
    await writeFile(join(dir, 'whole.wav'), pcmWav(16_000));
    expect(await pcmWavLength(join(dir, 'whole.wav'))).toBe(1000);

    const mp3 = await makeMp3(dir, 'not-wav.mp3', 1);
    expect(await pcmWavLength(mp3)).toBeUndefined();
    const text = join(dir, 'notes.wav');
    await writeFile(text, 'RIFF but then only words, no WAVE at all');
    expect(await pcmWavLength(text)).toBeUndefined();
    expect((await readFile(text)).length).toBeGreaterThan(0);
  });
});
