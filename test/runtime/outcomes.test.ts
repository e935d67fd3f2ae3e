// Outcomes as an editor reads them: silent media completes as "no speech" with only its JSON (no
// empty captions players reject); a failure reads in plain words with what to do next. Real files,
// the real runtime, the sandbox over loopback HTTP.
import { execFileSync } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobIds } from '../../main/adapters/queue/intake.js';
import { RESULT_FORMATS } from '../../main/engine/settings.js';
import { toJobView } from '../../main/ipc/views.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeSilenceWav, makeToneWav } from '../helpers/media.js';

const KEY = 'k';
let dir: string;
let sandbox: Sandbox;
let rt: Runtime;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-outcomes-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.01 });
  rt = await Runtime.open({
    stateDir: path.join(dir, '.state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
  });
  await rt.updateSettings((s) => ({
    ...s,
    defaults: { ...s.defaults, output: { ...s.defaults.output, formats: [...RESULT_FORMATS] } },
  }));
  await rt.start();
});
afterEach(async () => {
  await rt.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('media without speech', () => {
  it('a silent WAV and a video with no sound complete as "no speech" with their JSON only', async () => {
    const wav = await makeSilenceWav(dir, 'room tone.wav', 2);
    const mp4 = path.join(dir, 'b-roll.mp4');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', 'testsrc=size=160x120:rate=10:duration=2', '-an', '-c:v', 'libx264', '-preset', 'ultrafast'],
      ...['-pix_fmt', 'yuv420p', mp4],
    ]);
    const speech = await makeToneWav(dir, 'tone.wav', 1);
    const jobs = await rt.queue.whenSettled(jobIds(await rt.queue.addPaths([wav, mp4, speech])));
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed']);
    for (const j of jobs.slice(0, 2)) {
      // What the sandbox sent: a transcription with no words at all.
      const json = JSON.parse(await readFile(j.results[0]!.path, 'utf8')) as { transcription: { words: unknown[] } };
      expect(json.transcription.words).toEqual([]);
      expect(j.results.map((r) => [r.format, r.noSpeech])).toEqual([['json', true]]);
      expect(toJobView(j, undefined)).toMatchObject({ state: 'completed', noSpeech: true });
    }
    const files = (await readdir(dir)).filter((f) => /\.(srt|vtt|txt|csv)$/.test(f)).sort();
    // Only the file with sound has captions.
    expect(files).toEqual(['tone.avid.txt', 'tone.csv', 'tone.srt', 'tone.txt', 'tone.vtt']);
    expect(toJobView(jobs[2]!, undefined).noSpeech).toBeUndefined();
  });
});

describe('failures in plain words', () => {
  it('a transcoding failure says the media could not be read and what to do; the raw message stays', async () => {
    sandbox.setFaults({ processingFailure: { everyKth: 1, internalErrorName: 'PROCESSOR_TRANSCODING_ERROR' } });
    const wav = await makeToneWav(dir, 'A001_C003_0412.wav', 1);
    const [job] = await rt.queue.whenSettled(jobIds(await rt.queue.addPaths([wav])));
    expect(job?.state).toBe('failed');
    const view = toJobView(job!, undefined);
    expect(view.error?.message).toMatch(/PROCESSOR_TRANSCODING_ERROR/);
    expect(view.plainError).toEqual({
      summary: 'The service could not read this media: the file may be damaged, cut short, or not audio or video.',
      nextStep: 'Check that the file plays; export it again from your editor or recorder, then add it again.',
    });
    expect(view.plainError?.summary).not.toMatch(/[A-Z]{4,}_/);
  });
});

describe('retry failed', () => {
  it('retries only the files that could succeed and says which it skipped and why', async () => {
    sandbox.setFaults({ processingFailure: { everyKth: 1, internalErrorName: 'PROCESSOR_TRANSCRIPTION_ERROR' } });
    const names = ['gone.wav', 'emptied.wav', 'now text.wav', 'fine.wav'];
    const files = [];
    for (const n of names) files.push(await makeToneWav(dir, n, 1));
    const failed = await rt.queue.whenSettled(jobIds(await rt.queue.addPaths(files)));
    expect(failed.map((j) => j.state)).toEqual(['failed', 'failed', 'failed', 'failed']);
    sandbox.setFaults({});
    await rm(files[0]!);
    await writeFile(files[1]!, '');
    await writeFile(files[2]!, 'a note that replaced the recording\n');
    const uploadsBefore = sandbox.stats().upload ?? 0;
    const r = await rt.queue.retryAllFailed();
    expect(r.count).toBe(1);
    expect(r.skipped.map((s) => [s.fileName, s.reason])).toEqual([
      ['gone.wav', 'gone.wav is no longer there (deleted or moved).'],
      ['emptied.wav', 'emptied.wav is empty (0 bytes).'],
      ['now text.wav', expect.stringMatching(/^now text\.wav holds text, not audio or video/)],
    ]);
    const fine = failed[3]!;
    const [done] = await rt.queue.whenSettled([fine.id]);
    expect(done?.state).toBe('completed');
    expect(sandbox.stats().upload).toBe(uploadsBefore + 1);
    expect(rt.queue.jobs().filter((j) => j.state === 'failed')).toHaveLength(3);
  });
});
