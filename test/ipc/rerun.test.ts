// Re-running a file replaces the whole set of results its earlier run wrote, with the earlier run's
// own formats: nothing of the old template (a Markdown summary, speaker labels) stays beside the
// new results, and files Sluice did not write are never touched. Real runtime, sandbox over HTTP.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { value } from '../helpers/result.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { OUTPUT } from '../../main/engine/settings.js';
import { makeSpeechWav } from '../helpers/media.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv();

describe('re-run', () => {
  it('replaces the earlier results as a set, keeps the earlier formats, never touches other files', async () => {
    const wav = await makeSpeechWav(t.env.dir, 'take.wav', 'Good afternoon. This is the interview about the t.bridge.');
    const output = OUTPUT.parse({ formats: ['json', 'srt', 'txt', 'md'] });
    const [first] = await t.env.rt.queue.addPaths([wav], {
      templateId: TEMPLATE_IDS.diarization,
      params: { summary: true },
      output,
    });
    const firstId = first && 'jobId' in first ? first.jobId : '';
    await until(() => t.env.rt.queue.job(firstId)?.state === 'completed');
    expect(t.env.rt.queue.job(firstId)?.results.map((r) => r.format)).toEqual(['json', 'srt', 'txt', 'md']);
    expect(await readFile(path.join(t.env.dir, 'take.srt'), 'utf8')).toMatch(/Speaker 1: /);
    // A file of the editor's own beside them, and new defaults that must not apply to a re-run.
    await writeFile(path.join(t.env.dir, 'take.vtt'), 'WEBVTT\n\nmine\n');
    await t.env.rt.updateSettings((s) => ({
      ...s,
      defaults: { ...s.defaults, output: { ...s.defaults.output, formats: ['json', 'csv'] } },
    }));

    const again = value(
      await t.bridge.handlers['history:rerun']({ jobId: firstId, templateId: TEMPLATE_IDS.transcription, params: {} }),
    );
    const secondId = again[0] && 'jobId' in again[0] ? again[0].jobId : '';
    expect(secondId).not.toBe(firstId);
    await until(() => t.env.rt.queue.job(secondId)?.state === 'completed');
    const second = t.env.rt.queue.job(secondId)!;
    expect(second.output?.formats).toEqual(['json', 'srt', 'txt', 'md']);
    // No summary asked for this time: no Markdown, and the earlier one is gone with its speaker labels.
    expect(second.results.map((r) => r.format)).toEqual(['json', 'srt', 'txt']);
    expect((await readdir(t.env.dir)).filter((f) => f.startsWith('take.')).sort()).toEqual([
      'take.json',
      'take.srt',
      'take.txt',
      'take.vtt',
      'take.wav',
    ]);
    expect(await readFile(path.join(t.env.dir, 'take.srt'), 'utf8')).not.toMatch(/Speaker 1: /);
    expect(await readFile(path.join(t.env.dir, 'take.vtt'), 'utf8')).toBe('WEBVTT\n\nmine\n');
    // The earlier job no longer claims files it does not hold.
    await until(() => t.env.rt.queue.job(firstId)?.results.length === 0);
  });

  it('keeps an earlier result the editor changed since', async () => {
    const wav = await makeSpeechWav(t.env.dir, 'edit.wav', 'Hello from the newsroom.');
    const [first] = await t.env.rt.queue.addPaths([wav], {
      templateId: TEMPLATE_IDS.transcription,
      params: { summary: true },
      output: OUTPUT.parse({ formats: ['json', 'md'] }),
    });
    const firstId = first && 'jobId' in first ? first.jobId : '';
    await until(() => t.env.rt.queue.job(firstId)?.state === 'completed');
    await writeFile(path.join(t.env.dir, 'edit.md'), '# my notes\n');
    const again = value(await t.bridge.handlers['history:rerun']({ jobId: firstId, params: {} }));
    const secondId = again[0] && 'jobId' in again[0] ? again[0].jobId : '';
    await until(() => t.env.rt.queue.job(secondId)?.state === 'completed');
    expect(await readFile(path.join(t.env.dir, 'edit.md'), 'utf8')).toBe('# my notes\n');
  });
});
