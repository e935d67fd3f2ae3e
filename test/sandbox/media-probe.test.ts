// The sandbox measures uploads with the app's media probe: QuickTime is heard, not taken as silence.
import { execFile } from 'node:child_process';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '../../main/sandbox/media-probe.js';
import { makeHeardSpeechWav, makeMediaDir, makeMp4, makeSpeechWav } from '../helpers/media.js';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await makeMediaDir('sluice-sandbox-probe-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const probe = async (file: string) => probeMedia(file, (await stat(file)).size);

describe('sandbox media probe', () => {
  it('hears speech in a QuickTime .mov and in an MP4 that is QuickTime inside', async () => {
    const speech = await makeSpeechWav(
      dir,
      'speech.wav',
      'The harbour office opens on Thursday at nine in the morning.',
    );
    const mov = join(dir, 'IMG_4821.MOV');
    await run('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=30',
      '-i',
      speech,
      '-shortest',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      '-f',
      'mov',
      mov,
    ]);
    const renamed = join(dir, '会议记录 第二部分.mp4');
    await run('cp', [mov, renamed]);
    for (const f of [mov, renamed]) {
      const m = await probe(f);
      expect(m).toMatchObject({ kind: 'media', speechless: false, container: 'MPEG-4' });
      expect(m.kind === 'media' && m.durationMs).toBeGreaterThan(2000);
    }
  });

  it('takes the duration tag from a RIFF comment ending in NUL, as the soak writes it', async () => {
    const file = join(dir, 'tagged.wav');
    await run('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=duration=1',
      '-metadata',
      'comment=sluice-sandbox-duration-ms=240000',
      file,
    ]);
    expect(await probe(file)).toMatchObject({ kind: 'media', durationMs: 240000 });
  });

  it('hears what a speech file says from its test-only speech tag', async () => {
    const file = await makeHeardSpeechWav(dir, 'heard.wav', 'We shipped MoveFlow to Jürgen.');
    expect(await probe(file)).toMatchObject({
      kind: 'media',
      speechless: false,
      speech: 'We shipped MoveFlow to Jürgen.',
    });
    const plain = await probe(await makeSpeechWav(dir, 'plain.wav', 'We shipped MoveFlow to Jürgen.'));
    expect(plain.kind === 'media' && plain.speech).toBeUndefined();
  });

  it('calls an MP4 cut before its moov invalid, and text invalid', async () => {
    const text = join(dir, 'placeholder_not_video.mp4');
    await writeFile(text, Buffer.from([0, 1, 2, 3, 200, 201, 7, 9]).toString('latin1').repeat(100));
    expect(await probe(text)).toEqual({ kind: 'invalid' });
    const whole = await makeMp4(dir, 'whole.mp4', 3);
    const cut = join(dir, 'cut.mp4');
    const bytes = await readFile(whole);
    await writeFile(cut, bytes.subarray(0, bytes.length >> 1));
    expect(await probe(cut)).toEqual({ kind: 'invalid' });
  });
});
