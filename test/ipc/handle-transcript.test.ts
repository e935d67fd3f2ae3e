// The review view's channels against a real Runtime on the embedded sandbox: open, edit, undo,
// redo, revert; each change saved in the corrections layer (0600) and followed by the results
// beside the source, while the service's export in the state folder stays byte for byte.
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import type { TranscriptView } from '../../preload/contract.js';
import { value } from '../helpers/result.js';
import { makeToneWav } from '../helpers/media.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv({ mediaUrl: true, events: true });

async function completedJob(seconds = 20): Promise<{ jobId: string; media: string }> {
  await t.env.rt.updateSettings((s) => ({
    ...s,
    defaults: {
      ...s.defaults,
      output: { ...s.defaults.output, formats: ['json', 'srt', 'vtt', 'txt', 'csv', 'docx'] },
    },
  }));
  const media = path.join(t.env.dir, 'media');
  await mkdir(media, { recursive: true });
  const file = await makeToneWav(media, 'talk.wav', seconds);
  const added = value(await t.bridge.handlers['queue:add']({ paths: [file] }));
  const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
  await until(() => t.env.rt.queue.job(jobId)?.state === 'completed');
  return { jobId, media };
}

const changedTo = (jobId: string, revision: number) =>
  until(() =>
    t.events.find(
      (e) => e.name === 'transcript:changed' && e.payload.jobId === jobId && e.payload.revision === revision,
    ),
  );

describe('transcript channels', () => {
  it('opens, corrects, undoes, redoes and reverts, with the results following each change', async () => {
    const { jobId, media } = await completedJob();
    const keptPath = path.join(t.env.stateDir, 'exports', `${jobId}.json`);
    const kept = await readFile(keptPath);

    const opened: TranscriptView = value(await t.bridge.handlers['transcript:open']({ jobId }));
    expect(opened.words.length).toBeGreaterThan(5);
    expect(opened).toMatchObject({ revision: 0, corrected: false, canUndo: false, canRedo: false, simulated: true });
    expect(opened.media).toMatchObject({ kind: 'audio', url: `media/${jobId}`, mimeType: 'audio/wav' });
    expect(opened.paragraphs[0]?.first).toBe(0);
    expect(opened.paragraphs[opened.paragraphs.length - 1]?.end).toBe(opened.words.length);

    const first = opened.words[0]!;
    const second = opened.words[1]!;
    const edited = value(
      await t.bridge.handlers['transcript:edit']({
        jobId,
        revision: 0,
        edit: { kind: 'replace', from: 0, to: 2, text: 'Straßenbahn verkehrt heute' },
      }),
    );
    expect(edited.revision).toBe(1);
    expect(edited.corrected).toBe(true);
    expect(edited.words.slice(0, 3).map((w) => w.text)).toEqual(['Straßenbahn', 'verkehrt', 'heute']);
    expect(edited.words[0]!.start).toBe(first.start);
    expect(edited.words[2]!.end).toBe(second.end);
    expect(edited.words.length).toBe(opened.words.length + 1);

    // Saved before the answer, private, and the service's export untouched.
    const layerPath = path.join(t.env.stateDir, 'corrections', `${jobId}.json`);
    expect(JSON.parse(await readFile(layerPath, 'utf8'))).toMatchObject({ revision: 1, applied: 1 });
    if (process.platform !== 'win32') expect((await stat(layerPath)).mode & 0o777).toBe(0o600);
    expect((await readFile(keptPath)).equals(kept)).toBe(true);

    await changedTo(jobId, 1);
    const srt = await readFile(path.join(media, 'talk.srt'), 'utf8');
    expect(srt).toContain('Straßenbahn verkehrt heute');
    const json = JSON.parse(await readFile(path.join(media, 'talk.json'), 'utf8'));
    expect(json.transcription.words[0].word.trim()).toBe('Straßenbahn');
    const docx = await mammoth.extractRawText({ path: path.join(media, 'talk.docx') });
    expect(docx.value).toContain('Straßenbahn verkehrt heute');
    expect(docx.value).toContain('[00:00:');

    // History finds the corrected words, accents and case aside, with the line and its moment.
    let found = value(
      await t.bridge.handlers['history:list']({ search: 'STRASSENBAHN heute', includeExternal: false }),
    );
    for (let i = 0; i < 100 && !found.entries[0]?.match; i++) {
      await new Promise((r) => setTimeout(r, 50));
      found = value(await t.bridge.handlers['history:list']({ search: 'STRASSENBAHN heute', includeExternal: false }));
    }
    expect(found.entries[0]).toMatchObject({ jobId, match: { atMs: first.start } });
    expect(found.entries[0]?.match?.text).toContain('Straßenbahn verkehrt heute');

    const stale = await t.bridge.handlers['transcript:edit']({
      jobId,
      revision: 0,
      edit: { kind: 'replace', from: 0, to: 1, text: 'x' },
    });
    expect(stale).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    const outside = await t.bridge.handlers['transcript:edit']({
      jobId,
      revision: 1,
      edit: { kind: 'replace', from: 0, to: 100_000, text: 'x' },
    });
    expect(outside).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });

    const undone = value(await t.bridge.handlers['transcript:undo']({ jobId }));
    expect(undone).toMatchObject({ revision: 2, corrected: false, canUndo: false, canRedo: true });
    expect(undone.words).toEqual(opened.words);
    await changedTo(jobId, 2);
    // Back to the service's transcript: the JSON is again the export as received.
    expect((await readFile(path.join(media, 'talk.json'))).equals(kept)).toBe(true);

    const redone = value(await t.bridge.handlers['transcript:redo']({ jobId }));
    expect(redone.words).toEqual(edited.words);
    const reverted = value(await t.bridge.handlers['transcript:revert']({ jobId }));
    expect(reverted).toMatchObject({ corrected: false, canUndo: true });
    expect(reverted.words).toEqual(opened.words);
    await changedTo(jobId, reverted.revision);
    expect(await readFile(path.join(media, 'talk.srt'), 'utf8')).not.toContain('Straßenbahn');
  }, 60_000);

  it('refuses a job that is not there or has no transcript yet', async () => {
    const r = await t.bridge.handlers['transcript:open']({ jobId: 'nope' });
    expect(r).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
