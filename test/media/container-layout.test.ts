// A copy cut anywhere is told from a whole file by its container: MP4 and MOV (moov first or
// last), WAV and RF64; a format the check does not read is left to the settle time.
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerWholeness, readContainerLayout } from '../../main/media/container-layout.js';
import { judgeContainer, layoutVouches } from '../../main/engine/container-whole.js';
import { probeMediaFacts } from '../../main/media/probe.js';
import { makeMediaDir, makeMp3, makeMp4, makeToneWav } from '../helpers/media.js';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await makeMediaDir('sluice-whole-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The first `fraction` of the file, as a copy stalled there leaves it. */
async function cut(file: string, fraction: number, name: string): Promise<string> {
  const bytes = await readFile(file);
  const out = join(dir, name);
  await writeFile(out, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  return out;
}

describe('container wholeness', () => {
  it('MP4 with moov last: whole when complete, not whole cut anywhere', async () => {
    const mp4 = await makeMp4(dir, 'C0001.MP4', 3);
    expect(await containerWholeness(mp4)).toEqual({ whole: true });
    for (const f of [0.01, 0.3, 0.5, 0.9, 0.999]) {
      const w = await containerWholeness(await cut(mp4, f, `cut-${f}.mp4`));
      expect(w.whole, `cut at ${f}`).toBe(false);
    }
  });

  it('MOV with moov first (faststart): an mdat that runs past the end is not whole', async () => {
    const mp4 = await makeMp4(dir, 'src.mp4', 3);
    const mov = join(dir, 'MVI_0042.MOV');
    await run('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-i',
      mp4,
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      '-f',
      'mov',
      mov,
    ]);
    const layout = await readContainerLayout(mov);
    expect(layout.kind === 'isobmff' && layout.boxes.map((b) => b.type).indexOf('moov')).toBeLessThan(
      layout.kind === 'isobmff' ? layout.boxes.map((b) => b.type).indexOf('mdat') : -1,
    );
    expect(await containerWholeness(mov)).toEqual({ whole: true });
    const half = await containerWholeness(await cut(mov, 0.5, 'half.mov'));
    expect(half).toMatchObject({ whole: false, reason: expect.stringMatching(/'mdat' box ends at byte/) });
  });

  it('a pre-allocated copy (full size, zeros where the moov will go) is not whole', async () => {
    const mp4 = await makeMp4(dir, 'pre.mp4', 3);
    const bytes = await readFile(mp4);
    const out = join(dir, 'prealloc.mp4');
    const half = Math.floor(bytes.length / 2);
    await writeFile(out, Buffer.concat([bytes.subarray(0, half), Buffer.alloc(bytes.length - half)]));
    expect((await containerWholeness(out)).whole).toBe(false);
  });

  it('a pre-allocated copy that has not written its start yet (zeros from byte 0) is not whole, whatever its kind', async () => {
    for (const [name, make] of [
      ['zeros.mp4', () => makeMp4(dir, 'z.mp4', 2)],
      ['zeros.mp3', () => makeMp3(dir, 'z.mp3', 2)],
    ] as const) {
      const size = (await readFile(await make())).length;
      await writeFile(join(dir, name), Buffer.alloc(size));
      expect(await containerWholeness(join(dir, name)), name).toMatchObject({ whole: false });
    }
    // Text is not zeros: it is left to the other checks (a file added by hand is refused as text).
    await writeFile(join(dir, 'placeholder_not_video.mp4'), 'not a video\n');
    expect(await containerWholeness(join(dir, 'placeholder_not_video.mp4'))).toEqual({ whole: true });
  });

  it('WAV: whole when the RIFF size matches, not whole when cut', async () => {
    const wav = await makeToneWav(dir, 'ZOOM0007_LR.WAV', 2);
    expect(await containerWholeness(wav)).toEqual({ whole: true });
    const w = await containerWholeness(await cut(wav, 0.5, 'half.wav'));
    expect(w).toMatchObject({ whole: false, reason: expect.stringMatching(/header declares \d+ bytes/) });
  });

  it('RF64: reads the size from ds64', async () => {
    const rf64 = join(dir, 'long.wav');
    await run('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=2', '-rf64', 'always', rf64]);
    expect((await readContainerLayout(rf64)).kind).toBe('riff');
    expect(await containerWholeness(rf64)).toEqual({ whole: true });
    expect((await containerWholeness(await cut(rf64, 0.6, 'cut-rf64.wav'))).whole).toBe(false);
  });

  it('a WAV whose writer could not seek back (size unknown) and an MP3 cut short are left to the settle time', async () => {
    const wav = await makeToneWav(dir, 'stream.wav', 1);
    const fh = await open(wav, 'r+');
    await fh.write(Buffer.from([0xff, 0xff, 0xff, 0xff]), 0, 4, 4);
    await fh.close();
    expect(await containerWholeness(wav)).toEqual({ whole: true });
    const mp3 = await makeMp3(dir, 'a.mp3', 1);
    const half = await cut(mp3, 0.5, 'half.mp3');
    expect(await containerWholeness(half)).toEqual({ whole: true });
    expect(layoutVouches(await readContainerLayout(half))).toBe(false);
  });

  it('MP3: its Xing/Info byte count vouches for a whole file (ID3 tag, CBR, VBR, MPEG-2 mono); without one, time decides', async () => {
    const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3'];
    const made: Record<string, string[]> = {
      'tagged cbr.mp3': ['-metadata', 'title=Episode 12', '-c:a', 'libmp3lame', '-b:a', '128k'],
      'vbr.mp3': ['-c:a', 'libmp3lame', '-q:a', '4'],
      'mono 22k.mp3': ['-ac', '1', '-ar', '22050', '-c:a', 'libmp3lame', '-b:a', '32k'],
    };
    for (const [name, args] of Object.entries(made)) {
      const file = join(dir, name);
      await run('ffmpeg', ['-loglevel', 'error', '-y', ...tone, ...args, file]);
      const layout = await readContainerLayout(file);
      // Its ID3v2 tag plus the counted bytes is the whole file's length: nothing else is guessed.
      expect(layout).toMatchObject({ kind: 'mpeg-audio', streamEnd: (await readFile(file)).length });
      expect(layoutVouches(layout)).toBe(true);
      const cutShort = await readContainerLayout(await cut(file, 0.6, `cut ${name}`));
      expect(layoutVouches(cutShort)).toBe(false);
    }
    const bare = join(dir, 'no header.mp3');
    await run('ffmpeg', ['-loglevel', 'error', '-y', ...tone, '-c:a', 'libmp3lame', '-write_xing', '0', bare]);
    expect(await readContainerLayout(bare)).toMatchObject({ kind: 'mpeg-audio', streamEnd: null });
    expect(layoutVouches(await readContainerLayout(bare))).toBe(false);
  });

  it('MXF: whole as written; its first 16 KB (a copy cut short) is not whole, though the probe reads 2 s there', async () => {
    const mxf = join(dir, 'A003C001.mxf');
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=f=440:d=2',
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=320x240:r=25:d=2',
      '-c:v',
      'mpeg2video',
      '-c:a',
      'pcm_s16le',
      '-ar',
      '48000',
      '-shortest',
      mxf,
    ]);
    const layout = await readContainerLayout(mxf);
    expect(layout).toMatchObject({ kind: 'mxf', footerThere: true });
    expect(await containerWholeness(mxf)).toEqual({ whole: true });
    const head = join(dir, 'A003C001-16k.mxf');
    await writeFile(head, (await readFile(mxf)).subarray(0, 16 * 1024));
    // What MediaInfo reads from the header alone: the whole clip's duration.
    expect((await probeMediaFacts(head)).durationMs).toBeGreaterThan(1500);
    const w = await containerWholeness(head);
    expect(w.whole).toBe(false);
    if (!w.whole)
      expect(w.reason).toMatch(/^its header places the footer partition at byte \d+ and the file has 16384$/);
    // Cut anywhere before the footer, the same (a cut inside the last few KB, the footer itself, is not seen).
    for (const f of [0.3, 0.9, 0.99])
      expect((await containerWholeness(await cut(mxf, f, `cut-${f}.mxf`))).whole).toBe(false);
    // Pre-allocated (the right size, zeros where the footer belongs): not whole either.
    const zeros = await readFile(mxf);
    const footerAt = (layout as { footerAt: number }).footerAt;
    zeros.fill(0, footerAt);
    await writeFile(join(dir, 'prealloc.mxf'), zeros);
    expect(await containerWholeness(join(dir, 'prealloc.mxf'))).toMatchObject({ whole: false });
  });

  it('judges layouts: a box past the end, no moov, a broken header', () => {
    expect(
      judgeContainer({
        kind: 'isobmff',
        fileSize: 100,
        boxes: [
          { type: 'ftyp', start: 0, size: 20 },
          { type: 'moov', start: 20, size: 80 },
        ],
      }),
    ).toEqual({ whole: true });
    expect(
      judgeContainer({
        kind: 'isobmff',
        fileSize: 100,
        boxes: [
          { type: 'ftyp', start: 0, size: 20 },
          { type: 'mdat', start: 20, size: null },
        ],
      }).whole,
    ).toBe(false);
    expect(
      judgeContainer({ kind: 'isobmff', fileSize: 100, boxes: [{ type: 'moov', start: 0, size: 20 }], brokenAt: 20 })
        .whole,
    ).toBe(false);
    expect(judgeContainer({ kind: 'riff', fileSize: 108, declaredSize: 100 })).toEqual({ whole: true });
    expect(judgeContainer({ kind: 'riff', fileSize: 107, declaredSize: 100 }).whole).toBe(false);
  });
});
