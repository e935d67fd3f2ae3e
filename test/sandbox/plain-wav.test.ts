// The sandbox reads a plain WAV from its header, and must measure it as MediaInfo does.
import { execFile } from 'node:child_process';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMedia } from '../../main/media/probe.js';
import { plainWavOf, probeMedia } from '../../main/sandbox/media-probe.js';
import { makeMediaDir } from '../helpers/media.js';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await makeMediaDir('sluice-plain-wav-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A tone through ffmpeg; `bitexact` leaves out its LIST (encoder) chunk. */
async function wav(name: string, codec: string, rate: number, channels: number, seconds: number, extra: string[] = []) {
  const file = join(dir, name);
  await run('ffmpeg', [
    ...['-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=440:sample_rate=${rate}:duration=${seconds}`],
    ...['-ac', String(channels), '-c:a', codec, ...extra, file],
  ]);
  return file;
}
const bitexact = ['-fflags', '+bitexact', '-flags:a', '+bitexact'];

describe('plain WAVs read from their header', () => {
  it('measures every plain coding, rate and channel count as MediaInfo does', async () => {
    const cases: Array<[string, number, number, number]> = [
      ['pcm_u8', 8000, 1, 0.2503],
      ['pcm_s16le', 22050, 1, 1.37],
      ['pcm_s16le', 44100, 2, 0.25],
      ['pcm_s24le', 48000, 2, 3.0007],
      ['pcm_s32le', 96000, 1, 0.5],
      ['pcm_f32le', 48000, 2, 2.2222],
      ['pcm_s16le', 48000, 6, 1.001], // six channels: WAVE_FORMAT_EXTENSIBLE
    ];
    for (const [codec, rate, channels, seconds] of cases) {
      const file = await wav(`${codec}-${rate}-${channels}.wav`, codec, rate, channels, seconds, bitexact);
      const size = (await stat(file)).size;
      const plain = await plainWavOf(file, size);
      const mi = await readMedia(file);
      expect(plain, `${codec} ${rate} Hz ${channels} ch`).toEqual({
        durationMs: mi.facts.durationMs,
        channels: mi.channels,
        sampleRate: mi.sampleRate,
        bitsPerSample: mi.bitsPerSample,
      });
      expect(await probeMedia(file, size)).toMatchObject({
        kind: 'media',
        container: 'Wave',
        channels,
        sampleRate: rate,
      });
    }
  });

  it('leaves to MediaInfo a WAV with a start, a comment or an encoder tag, and one cut short', async () => {
    const bext = await wav('bext.wav', 'pcm_s16le', 48000, 1, 1, [...bitexact, '-write_bext', '1']);
    const tagged = await wav('tagged.wav', 'pcm_s16le', 48000, 1, 1, ['-metadata', 'comment=take 3']);
    const whole = await wav('whole.wav', 'pcm_s16le', 48000, 1, 1, bitexact);
    const cut = join(dir, 'cut.wav');
    await writeFile(cut, (await readFile(whole)).subarray(0, 20_000));
    for (const file of [bext, tagged, cut]) expect(await plainWavOf(file, (await stat(file)).size)).toBeUndefined();
    expect(await plainWavOf(whole, (await stat(whole)).size)).toMatchObject({ durationMs: 1000 });
  });
});
