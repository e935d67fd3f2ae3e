// A correction after the editor changed a caption file by hand: the hand-edited `talk.srt` is kept,
// the corrected captions go to `talk.wav.srt`, and the result says which file holds the usual name
// (`heldBy`) so the review can tell the editor and offer to write over it. Overwriting puts the
// corrected captions in `talk.srt`, removes the fallback, and later corrections go there too.
import { appendFile, mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { value } from '../helpers/result.js';
import { makeToneWav } from '../helpers/media.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv({ events: true });

const HAND_CUE = '\n99\n00:09:00,000 --> 00:09:02,000\nAdded by hand in Subtitle Edit\n';

async function completedJob(): Promise<{ jobId: string; media: string }> {
  await t.env.rt.updateSettings((s) => ({
    ...s,
    defaults: { ...s.defaults, output: { ...s.defaults.output, formats: ['json', 'srt', 'txt'] } },
  }));
  const media = path.join(t.env.dir, 'media');
  await mkdir(media, { recursive: true });
  const file = await makeToneWav(media, 'talk.wav', 12);
  const added = value(await t.bridge.handlers['queue:add']({ paths: [file] }));
  const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
  await until(() => t.env.rt.queue.job(jobId)?.state === 'completed');
  return { jobId, media };
}

async function correct(jobId: string, text: string): Promise<void> {
  const view = value(await t.bridge.handlers['transcript:open']({ jobId }));
  const revision = view.revision;
  value(
    await t.bridge.handlers['transcript:edit']({ jobId, revision, edit: { kind: 'replace', from: 0, to: 1, text } }),
  );
  await until(() =>
    t.events.find(
      (e) => e.name === 'transcript:changed' && e.payload.jobId === jobId && e.payload.revision === revision + 1,
    ),
  );
}

describe('a correction after a hand edit', () => {
  it('names the hand-edited file it kept, and writes over it when asked', async () => {
    const { jobId, media } = await completedJob();
    const usual = path.join(media, 'talk.srt');
    const fallback = path.join(media, 'talk.wav.srt');
    await appendFile(usual, HAND_CUE);

    await correct(jobId, 'Thursday');
    const changed = t.events.findLast((e) => e.name === 'transcript:changed');
    const srt =
      changed?.name === 'transcript:changed' ? changed.payload.results.find((r) => r.format === 'srt') : undefined;
    expect(srt).toMatchObject({ path: fallback, collided: true, heldBy: usual });
    // The TXT the editor did not touch is rewritten in place and names no holder.
    const txt =
      changed?.name === 'transcript:changed' ? changed.payload.results.find((r) => r.format === 'txt') : undefined;
    expect(txt).toMatchObject({ collided: false });
    expect(txt?.heldBy).toBeUndefined();
    expect(await readFile(usual, 'utf8')).toContain('Added by hand');
    expect(await readFile(fallback, 'utf8')).toContain('Thursday');
    // Opening the review again still shows where the captions went.
    const reopened = value(await t.bridge.handlers['transcript:open']({ jobId }));
    expect(reopened.results.find((r) => r.format === 'srt')).toMatchObject({ heldBy: usual });

    const over = value(await t.bridge.handlers['transcript:overwriteHeld']({ jobId }));
    expect(over.results.find((r) => r.format === 'srt')).toMatchObject({ path: usual, collided: false });
    expect(over.results.some((r) => r.heldBy)).toBe(false);
    const written = await readFile(usual, 'utf8');
    expect(written).toContain('Thursday');
    expect(written).not.toContain('Added by hand');
    expect(await readdir(media)).not.toContain('talk.wav.srt');

    // The file is Sluice's own again: the next correction goes to it, not to a fallback.
    await correct(jobId, 'Friday');
    expect(await readFile(usual, 'utf8')).toContain('Friday');
    expect(await readdir(media)).not.toContain('talk.wav.srt');
  });

  it('a holder of another case (a drone’s telemetry .SRT) is named nowhere as one to overwrite', async () => {
    const { jobId, media } = await completedJob();
    // Replace Sluice's own talk.srt by a foreign file of another case, as a drone's telemetry.
    await unlink(path.join(media, 'talk.srt'));
    await writeFile(path.join(media, 'talk.SRT'), '1\n00:00:00,000 --> 00:00:01,000\nF/2.8, ISO 100\n');
    await correct(jobId, 'Thursday');
    const changed = t.events.findLast((e) => e.name === 'transcript:changed');
    const srt =
      changed?.name === 'transcript:changed' ? changed.payload.results.find((r) => r.format === 'srt') : undefined;
    // The captions take the name with their language, which players load (caption-names.ts).
    expect(srt).toMatchObject({ path: path.join(media, 'talk.en.srt'), collided: true });
    expect(srt?.heldBy).toBeUndefined();
  });
});
