// The timeline an editor compares with the NLE: a recorder's WAV stamped 10:00:00 (BWF bext,
// written by ffmpeg) goes through the queue on the sandbox; the job's editor results say where
// they started, and the review's transcript carries the clock its running timecode counts on.
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import Timecode from 'smpte-timecode';
import { describe, expect, it } from 'vitest';
import { clockLabel, frameAt } from '../../preload/contract/timecode.js';
import { value } from '../helpers/result.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv({ mediaUrl: true });

async function recorderWav(): Promise<string> {
  const dir = path.join(t.env.dir, 'media');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'recorder.wav');
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=6'],
    ...['-ar', '48000', '-write_bext', '1', '-metadata', `time_reference=${10 * 3600 * 48_000}`, file],
  ]);
  return file;
}

async function completed(formats: string[]): Promise<string> {
  await t.env.rt.updateSettings((s) => ({
    ...s,
    defaults: { ...s.defaults, output: { ...s.defaults.output, formats: formats as never } },
  }));
  const added = value(await t.bridge.handlers['queue:add']({ paths: [await recorderWav()] }));
  const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
  await until(() => t.env.rt.queue.job(jobId)?.state === 'completed', 30_000);
  return jobId;
}

describe('the timeline in the job and the review', () => {
  it('the job’s editor results say they start at the recorder’s stamp, and the review counts from it', async () => {
    const jobId = await completed(['json', 'srt', 'edl', 'fcpxml']);
    const snapshot = value(await t.bridge.handlers['queue:snapshot']({}));
    const job = snapshot.jobs.find((j) => j.id === jobId)!;
    const edl = job.results.find((r) => r.format === 'edl');
    expect(edl?.timeline).toEqual({ start: '10:00:00:00', rate: '25', origin: 'bext' });
    expect(job.results.find((r) => r.format === 'srt')?.timeline).toBeUndefined();

    const view = value(await t.bridge.handlers['transcript:open']({ jobId }));
    expect(view.timeline).toMatchObject({ start: '10:00:00:00', rate: '25', origin: 'bext', num: 25, den: 1 });
    // 2.5 s into the file is frame 62 at 25 fps: 10:00:02:12.
    expect(clockLabel(frameAt(2.5, view.timeline!), view.timeline!)).toBe('10:00:02:12');
  }, 60_000);

  it('a job that asked for no editor format still gets its clock from the media, on the folder’s rate', async () => {
    await t.env.rt.updateSettings((s) => ({
      ...s,
      defaults: {
        ...s.defaults,
        output: { ...s.defaults.output, timeline: { start: 'source', defaultRate: '29.97df' } },
      },
    }));
    const jobId = await completed(['json', 'srt']);
    const view = value(await t.bridge.handlers['transcript:open']({ jobId }));
    // Ten hours of real time is 1,078,921 frames at 30000/1001; drop-frame labels them a frame past the hour.
    const start = new Timecode(Math.round((36_000 * 30_000) / 1001), 29.97, true).toString();
    expect(start).toBe('10:00:00;01');
    expect(view.timeline).toMatchObject({ start, rate: '29.97 DF', origin: 'bext', dropFrame: true });
  }, 60_000);
});
