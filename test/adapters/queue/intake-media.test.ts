// Files added by hand are judged before anything is uploaded: generated real media passes; text,
// empty, cut-short and unknown files are refused with a sentence naming the file and the reason.
import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaRefusal } from '../../../main/adapters/queue/intake-media.js';
import {
  makeGarbage,
  makeM4a,
  makeMediaDir,
  makeMp3,
  makeMp4,
  makeSilenceWav,
  makeSpeechWav,
  makeToneWav,
} from '../../helpers/media.js';

let dir: string;
beforeAll(async () => {
  dir = await makeMediaDir('sluice-intake-media-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const judge = async (file: string): Promise<string | undefined> => mediaRefusal(file, (await readFile(file)).length);

describe('media added by hand', () => {
  it('takes real audio and video, whatever the case of the extension', async () => {
    const files = [
      await makeToneWav(dir, 'ZOOM0001_LR.WAV', 1),
      await makeSpeechWav(dir, 'speech.wav', 'hello there'),
      await makeSilenceWav(dir, 'silence.wav', 1),
      await makeMp3(dir, 'long.mp3', 2),
      await makeM4a(dir, 'voice.m4a', 1),
      await makeMp4(dir, 'GX010234.MP4', 1),
    ];
    const mov = path.join(dir, 'A001_C003_0412.mov');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', files[5]!, '-c', 'copy', mov]);
    files.push(mov);
    for (const f of files) expect([path.basename(f), await judge(f)]).toEqual([path.basename(f), undefined]);
  });

  it('refuses a file that is not named as media', async () => {
    const pdf = path.join(dir, 'notes.pdf');
    await writeFile(pdf, '%PDF-1.4 fake');
    expect(await judge(pdf)).toBe('notes.pdf is not an audio or video file (.pdf); it was not added.');
    const bare = path.join(dir, 'README');
    await writeFile(bare, 'x');
    expect(await judge(bare)).toMatch(/^README has no audio or video extension/);
  });

  it('refuses an empty file', async () => {
    const empty = path.join(dir, 'empty.mp4');
    await writeFile(empty, '');
    expect(await judge(empty)).toBe('empty.mp4 is empty (0 bytes); it was not added.');
  });

  it('refuses text named as media', async () => {
    const text = path.join(dir, 'script.mp4');
    await writeFile(text, 'INT. NEWSROOM – DAY\nPiața, café, 会议\n'.repeat(400));
    expect(await judge(text)).toMatch(/^script\.mp4 holds text, not audio or video/);
    const mxf = path.join(dir, 'clip.MXF');
    await writeFile(mxf, 'just a note\n');
    expect(await judge(mxf)).toMatch(/^clip\.MXF holds text/);
  });

  it('refuses bytes no media reader understands', async () => {
    const junk = await makeGarbage(dir, 'junk.wav');
    expect(await judge(junk)).toMatch(/^junk\.wav cannot be read as audio or video/);
  });

  it('refuses a copy cut short, WAV and MP4', async () => {
    const wav = await makeToneWav(dir, 'whole.wav', 2);
    const cutWav = path.join(dir, 'cut.wav');
    await writeFile(cutWav, (await readFile(wav)).subarray(0, 20_000));
    expect(await judge(cutWav)).toMatch(/^cut\.wav is cut short/);
    const mp4 = await makeMp4(dir, 'whole.mp4', 2);
    const cutMp4 = path.join(dir, 'cut.mp4');
    await writeFile(cutMp4, (await readFile(mp4)).subarray(0, 3000));
    expect(await judge(cutMp4)).toMatch(
      /^cut\.mp4 is cut short \(its 'mdat' box ends at byte \d+ and the file has 3000;/,
    );
  });
});
