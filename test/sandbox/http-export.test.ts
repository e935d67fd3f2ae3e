import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, SANDBOX } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import type { ExportResult } from '../../main/service/types.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeSilenceWav, makeSpeechWav, makeToneWav } from '../helpers/media.js';
import { call, exportJson, upload, waitFinished } from './client.js';

let sb: Sandbox;
let dir: string;
let long: string;
let speech: string;

beforeAll(async () => {
  sb = await startSandbox({ fixedProcessingMs: 60 });
  dir = await makeMediaDir();
  long = await makeToneWav(dir, 'long.wav', 40);
  speech = await makeSpeechWav(dir, 's.wav', 'Testing the export service.');
});
afterAll(async () => {
  await sb.close();
  await rm(dir, { recursive: true, force: true });
});

async function exported(
  file: string,
  template: string,
  params: Record<string, string | string[]> = {},
): Promise<ExportResult> {
  const r = await upload(sb.url, file, { template, params });
  expect(r.status).toBe(200);
  expect((await waitFinished(sb.url, r.body.streamId)).state).toBe('COMPLETED');
  const e = await exportJson<ExportResult>(sb.url, r.body.streamId);
  expect(e.status).toBe(200);
  expect(e.headers.get('content-type')).toMatch(/^application\/json/);
  return e.body;
}

describe('export shapes per template (§6.3, C18)', () => {
  it('transcription only: visibly simulated, words spread over the real duration', async () => {
    const r = await exported(long, TEMPLATE_IDS.transcription);
    expect(Object.keys(r)).toEqual(['transcription']);
    const t = r.transcription!;
    expect(t.text).toContain(SANDBOX.simulatedNotice);
    expect(t.text).toBe(t.words.map((w) => w.word).join(''));
    expect(t.words.at(-1)!.end).toBeGreaterThan(30_000);
    expect(t.words.at(-1)!.end).toBeLessThanOrEqual(40_000);
    expect(t.words[0]).toMatchObject({ language: 'en' });
    expect(t.words[0]).not.toHaveProperty('speakers');
  });

  it('is deterministic for the same file', async () => {
    const a = await exported(long, TEMPLATE_IDS.transcription);
    const b = await exported(long, TEMPLATE_IDS.transcription);
    expect(b).toEqual(a);
  });

  it('diarization: utterances and word speakers, respecting speakersNumber', async () => {
    const r = await exported(long, TEMPLATE_IDS.diarization, { speakersNumber: '3' });
    const speakers = new Set(r.transcription!.words.flatMap((w) => w.speakers ?? []));
    expect([...speakers].sort()).toEqual(['SPEAKER_0', 'SPEAKER_1', 'SPEAKER_2']);
    expect(r.utterances!.length).toBeGreaterThanOrEqual(3);
    expect(r.utterances![0]).toMatchObject({ speakerIds: ['SPEAKER_0'], overlap: false });
  });

  it('summary (bullet points), sentiment, two asks (one with a JSON format), enhanced transcription', async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: { party_size: { type: 'integer' }, ok: { type: 'boolean' }, who: { type: 'string' } },
      required: ['party_size', 'ok', 'who'],
      additionalProperties: false,
    });
    const r = await exported(long, TEMPLATE_IDS.transcription, {
      summary: 'true',
      summaryStructure: 'bullet_points',
      sentimentAnalysis: 'true',
      ask0: 'Who called?',
      ask1: 'Extract the booking',
      ask1Id: 'booking',
      ask1Format: schema,
      enhancedTranscription: 'true',
    });
    expect(r.summary!.content.split('\n').every((l) => l.startsWith('- '))).toBe(true);
    const s = r.sentimentAnalysis!;
    expect(s.segments.length).toBeGreaterThan(0);
    expect(s.summary.positiveCount + s.summary.negativeCount + s.summary.neutralCount).toBe(s.segments.length);
    expect(s.segments.every((x) => x.score >= -1 && x.score <= 1 && x.startTime < x.endTime)).toBe(true);
    expect(Object.keys(r.askAnything!).sort()).toEqual(['0', 'booking']);
    expect(r.askAnything!['0']).toMatchObject({ promptId: '0', responseFormatSpecification: null });
    const booking = JSON.parse(r.askAnything!.booking!.content);
    expect(Object.keys(booking).sort()).toEqual(['ok', 'party_size', 'who']);
    expect([Number.isInteger(booking.party_size), typeof booking.ok, typeof booking.who]).toEqual([
      true,
      'boolean',
      'string',
    ]);
    expect(r.enhancedTranscription!.transcription.text).toBe(r.transcription!.text);
  });

  it('paragraph summary has no bullets', async () => {
    const r = await exported(long, TEMPLATE_IDS.transcription, { summary: 'true' });
    expect(r.summary!.content.startsWith('- ')).toBe(false);
    expect(r).not.toHaveProperty('sentimentAnalysis');
  });

  it('Romanian template tags words "ro"; code switching tags several languages', async () => {
    const ro = await exported(long, TEMPLATE_IDS.romanian);
    expect(new Set(ro.transcription!.words.map((w) => w.language))).toEqual(new Set(['ro']));
    const multi = await exported(long, TEMPLATE_IDS.transcription, { language: ['en', 'de'] });
    expect(new Set(multi.transcription!.words.map((w) => w.language))).toEqual(new Set(['en', 'de']));
  });

  it('stereo split gives word channels and sentiment channels', async () => {
    const stereo = await makeToneWav(dir, 'stereo.wav', 30, 2);
    const r = await exported(stereo, TEMPLATE_IDS.transcription, { splitStereo: 'true', sentimentAnalysis: 'true' });
    expect(new Set(r.transcription!.words.map((w) => w.channel))).toEqual(new Set(['0', '1']));
    expect(r.sentimentAnalysis!.summary.channels!.map((c) => c.channel).sort()).toEqual([0, 1]);
  });

  it('speechless media → empty transcription (200, not 204)', async () => {
    const r = await exported(await makeSilenceWav(dir, 'quiet.wav', 3), TEMPLATE_IDS.transcription);
    expect(r.transcription).toEqual({ text: '', words: [] });
  });

  it('sandbox-only transcoding template reports the media', async () => {
    const r = await exported(speech, TEMPLATE_IDS.transcode);
    expect(r.media).toMatchObject({ container: 'Wave', channels: 1 });
  });
});

describe('export rules (C17)', () => {
  const EXPORT = `${API_PREFIX.export}/export`;

  it('TEXT is the plain transcript', async () => {
    const r = await upload(sb.url, speech);
    await waitFinished(sb.url, r.body.streamId);
    const t = await call<string>(sb.url, `${EXPORT}/TEXT?streams=${r.body.streamId}`);
    expect(t.status).toBe(200);
    expect(t.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(t.text).toContain(SANDBOX.simulatedNotice);
  });

  it('not persisted → 204; echo template → 204', async () => {
    const r = await upload(sb.url, speech, { persist: false });
    await waitFinished(sb.url, r.body.streamId);
    expect((await exportJson(sb.url, r.body.streamId)).status).toBe(204);
    const ping = await upload(sb.url, speech, { template: TEMPLATE_IDS.ping });
    await waitFinished(sb.url, ping.body.streamId);
    expect((await exportJson(sb.url, ping.body.streamId)).status).toBe(204);
  });

  it('FAILED → 409, unknown → 404, malformed → 400, two streams → 400, bad format → 400', async () => {
    const bad = await upload(sb.url, Buffer.from('nonsense'));
    await waitFinished(sb.url, bad.body.streamId);
    const failed = await exportJson<{ internalErrorName: string; message: string }>(sb.url, bad.body.streamId);
    expect([failed.status, failed.body.internalErrorName]).toEqual([409, 'GENERAL_CONFLICT_ERROR']);
    expect(failed.body.message).toContain('FAILED');
    expect((await exportJson(sb.url, randomUUID())).status).toBe(404);
    expect((await exportJson(sb.url, 'xyz')).status).toBe(400);
    const two = await call<{ internalErrorName: string }>(
      sb.url,
      `${EXPORT}/JSON?streams=${randomUUID()}&streams=${randomUUID()}`,
    );
    expect([two.status, two.body.internalErrorName]).toEqual([400, 'GENERAL_BAD_REQUEST_ERROR']);
    expect((await call(sb.url, `${EXPORT}/XML?streams=${bad.body.streamId}`)).status).toBe(400);
  });

  it('READY: waits for completion; a short timeout gives 504', async () => {
    const slow = await startSandbox({ fixedProcessingMs: 400 });
    try {
      const a = await upload(slow.url, speech);
      const started = Date.now();
      const e = await exportJson<ExportResult>(slow.url, a.body.streamId);
      expect(e.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      const b = await upload(slow.url, speech);
      const t = await exportJson<{ internalErrorName: string }>(slow.url, b.body.streamId, '&timeout=50');
      expect([t.status, t.body.internalErrorName]).toEqual([504, 'GENERAL_TIME_OUT_ERROR']);
    } finally {
      await slow.close();
    }
  });

  it('EXPIRED → 404', async () => {
    // The sandbox's clock runs with the wall clock, moved on past the retention below.
    let ahead = 0;
    const short = await startSandbox({ fixedProcessingMs: 20, retentionMs: 100, now: () => Date.now() + ahead });
    try {
      const a = await upload(short.url, speech);
      await waitFinished(short.url, a.body.streamId);
      ahead += 150;
      expect((await waitFinished(short.url, a.body.streamId)).state).toBe('EXPIRED');
      expect((await exportJson(short.url, a.body.streamId)).status).toBe(404);
    } finally {
      await short.close();
    }
  });
});
