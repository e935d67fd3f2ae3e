// Generated test media (never downloaded). Needs espeak-ng, sox and ffmpeg on PATH.
// Every helper writes a new file into `dir` and returns its absolute path. The generators whose
// output is the same for the same recipe (espeak-ng, ffmpeg, sox with its fixed random numbers)
// make each recipe once per test run, in the run's folder (helpers/run-folder.ts), and copy it;
// the copy is byte for byte what a fresh run of the tool writes. Tones with fresh dither stay fresh.
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { RUN_FOLDER_ENV } from './run-folder.js';

const run = promisify(execFile);

/**
 * `out`, made by `make` from `recipe` (the tool and its arguments, without the output path): once
 * per run and copied after that. Parallel test files may make the same recipe at once: each makes
 * its own temp file and the last rename wins, with the same bytes.
 */
async function made(out: string, recipe: readonly unknown[], make: (to: string) => Promise<unknown>): Promise<string> {
  const run = process.env[RUN_FOLDER_ENV];
  if (!run) {
    await make(out);
    return out;
  }
  const cache = join(run, 'media');
  await mkdir(cache, { recursive: true });
  const ext = extname(out);
  const kept = join(
    cache,
    createHash('sha256')
      .update(JSON.stringify([ext, ...recipe]))
      .digest('hex') + ext,
  );
  const have = await stat(kept).then(
    () => true,
    () => false,
  );
  if (!have) {
    const temp = join(cache, `${randomBytes(8).toString('hex')}.part${ext}`);
    await make(temp);
    await rename(temp, kept);
  }
  await copyFile(kept, out, constants.COPYFILE_FICLONE);
  return out;
}

/** A fresh temp directory for media files (the caller removes it). */
export function makeMediaDir(prefix = 'sluice-media-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Spoken English from espeak-ng (22,050 Hz mono WAV). */
export async function makeSpeechWav(dir: string, name: string, text: string): Promise<string> {
  return made(join(dir, name), ['espeak-ng', text], (to) => run('espeak-ng', ['-w', to, text]));
}

/**
 * A 440 Hz sine (44.1 kHz, 16-bit); `channels` 1 or 2. sox dithers with fresh random numbers, so
 * two calls never give the same bytes (nor the same simulated transcript): tests that add several
 * tones rely on their being different files.
 */
export async function makeToneWav(dir: string, name: string, seconds: number, channels: 1 | 2 = 1): Promise<string> {
  const out = join(dir, name);
  await run('sox', [
    '-n',
    '-r',
    '44100',
    '-b',
    '16',
    '-c',
    String(channels),
    out,
    'synth',
    String(seconds),
    'sine',
    '440',
  ]);
  return out;
}

/**
 * The same 440 Hz sine with sox's fixed random numbers: the same length gives the same bytes on
 * every run, so the sandbox's simulated transcript and answers (seeded by the content) repeat too.
 */
export async function makeRepeatableToneWav(dir: string, name: string, seconds: number): Promise<string> {
  const args = (to: string) => [
    '-R',
    '-n',
    '-r',
    '44100',
    '-b',
    '16',
    '-c',
    '1',
    to,
    'synth',
    String(seconds),
    'sine',
    '440',
  ];
  return made(join(dir, name), ['sox', ...args('')], (to) => run('sox', args(to)));
}

/** Digital silence (valid media without speech). */
export async function makeSilenceWav(dir: string, name: string, seconds: number): Promise<string> {
  const args = (to: string) => ['-n', '-r', '16000', '-b', '16', '-c', '1', to, 'trim', '0', String(seconds)];
  return made(join(dir, name), ['sox', ...args('')], (to) => run('sox', args(to)));
}

/** ffmpeg writing `out` from `args` (its inputs and options): made once per run, then copied. */
function ffmpeg(args: string[], out: string): Promise<string> {
  return made(out, ['ffmpeg', ...args], (to) =>
    run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, to]),
  );
}

/**
 * What ffmpeg makes of `args` (its inputs and output options) as `name` in `dir`, encoded once per
 * run. With `title`, the encoded streams are copied under that title instead: a file of its own
 * bytes (a queue takes each file once) for the cost of a copy, not of a second encode.
 */
export async function makeFfmpegMedia(dir: string, name: string, args: string[], title?: string): Promise<string> {
  const out = join(dir, name);
  if (title === undefined) return ffmpeg(args, out);
  const encoded = await ffmpeg(args, join(dir, `encoded-${randomBytes(4).toString('hex')}${extname(name)}`));
  const copy = ['-hide_banner', '-loglevel', 'error', '-y', '-i', encoded, '-map', '0', '-c', 'copy'];
  await run('ffmpeg', [...copy, '-metadata', `title=${title}`, out]);
  await rm(encoded, { force: true });
  return out;
}

/** ffmpeg input: a 440 Hz sine of `seconds`. */
const sine = (seconds: number): string[] => ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`];

/**
 * A WAV of a 440 Hz sine as ffmpeg encodes it: `rate` Hz, `channels`, and the output options in
 * `args` (the sample coding `-c:a pcm_s24le`, `-rf64 always`, `-write_bext 1`...).
 */
export async function makeEncodedWav(
  dir: string,
  name: string,
  seconds: number,
  o: { rate: number; channels: number; args: readonly string[] },
): Promise<string> {
  const out = join(dir, name);
  const input = ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${o.rate}:duration=${seconds}`];
  return ffmpeg([...input, '-ac', String(o.channels), ...o.args], out);
}

/** MP3 (libmp3lame) of a sine tone. */
export async function makeMp3(dir: string, name: string, seconds: number): Promise<string> {
  const out = join(dir, name);
  return ffmpeg([...sine(seconds), '-c:a', 'libmp3lame', '-b:a', '64k'], out);
}

/** MP4 video (H.264 test pattern + AAC tone). */
export async function makeMp4(dir: string, name: string, seconds: number): Promise<string> {
  const out = join(dir, name);
  return ffmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=160x120:rate=10:duration=${seconds}`,
      ...sine(seconds),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
    ],
    out,
  );
}

/** M4A (AAC audio in MP4). */
export async function makeM4a(dir: string, name: string, seconds: number): Promise<string> {
  const out = join(dir, name);
  return ffmpeg([...sine(seconds), '-c:a', 'aac', '-b:a', '64k'], out);
}

/** Bytes that are not media (for failure paths). */
export async function makeGarbage(dir: string, name: string, bytes = 4096): Promise<string> {
  const out = join(dir, name);
  const buf = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) buf[i] = (i * 7919 + 13) % 251;
  await writeFile(out, buf);
  return out;
}

/**
 * A one-second tone the sandbox takes as `durationMs` long (its bench/test-only duration tag, see
 * main/sandbox/media-probe.ts): hours of simulated media without hour-long files.
 */
export async function makeDurationTaggedWav(dir: string, name: string, durationMs: number): Promise<string> {
  const out = join(dir, name);
  return ffmpeg([...sine(1), '-metadata', `comment=sluice-sandbox-duration-ms=${durationMs}`], out);
}

/**
 * Spoken English from espeak-ng that the sandbox hears as `text`: its recognition is simulated, so
 * the file carries what it says in the sandbox's test-only speech tag (main/sandbox/media-probe.ts).
 */
export async function makeHeardSpeechWav(dir: string, name: string, text: string): Promise<string> {
  const spoken = await makeSpeechWav(dir, `spoken-${name}`, text);
  return ffmpeg(['-i', spoken, '-metadata', `comment=sluice-sandbox-speech=${text}`, '-c', 'copy'], join(dir, name));
}

/**
 * A 16-bit mono PCM WAV built in memory: its header declares `samples` samples, and the first
 * `written` of them (all by default) follow it, so a copy cut short can be made too. Each sample
 * is `sample(i)` (silence by default).
 */
export function pcmWav(
  samples: number,
  o: { sampleRate?: number; written?: number; sample?: (i: number) => number } = {},
): Buffer<ArrayBuffer> {
  const rate = o.sampleRate ?? 16_000;
  const written = o.written ?? samples;
  const buf = Buffer.alloc(44 + written * 2);
  buf.write('RIFF', 0, 'latin1');
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVEfmt ', 8, 'latin1');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'latin1');
  buf.writeUInt32LE(samples * 2, 40);
  if (o.sample) for (let i = 0; i < written; i++) buf.writeInt16LE(o.sample(i), 44 + i * 2);
  return buf;
}
