// Every operation of the client against the sandbox over real HTTP on loopback.
import { randomUUID } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { makeGarbage, makeMp3, makeMp4, makeSpeechWav } from '../helpers/media.js';
import { rejection, startEnv, toneWav, waitForState, type Env } from './sandbox-env.js';

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(() => env.close());

const TPL = TEMPLATE_IDS.transcription;

describe('upload → track → export → usage', () => {
  it('runs the whole life of a stream', async () => {
    const file = await toneWav(env.dir, 2, 'interview 03.wav');
    const streamId = randomUUID();
    const progress: Array<[number, number]> = [];
    const created = await env.client.upload({
      templateId: TEMPLATE_IDS.diarization,
      streamId,
      filePath: file,
      params: { language: ['en', 'de'], maxSpeakersNumber: 3, summary: true, summaryStructure: 'bullet_points' },
      onProgress: (sent, total) => progress.push([sent, total]),
    });
    expect(created).toMatchObject({ streamId, name: 'interview 03.wav', groupId: streamId, state: 'READY' });
    const total = (await stat(file)).size;
    expect(progress[0]).toEqual([0, total]);
    expect(progress.at(-1)).toEqual([total, total]);
    const byId = (id: string) => created.configuration.processors.find((p) => p.id === id)?.properties;
    expect(byId('diarization')?.maxSpeakersNumber).toBe(3);

    const done = await waitForState(env.client, streamId);
    expect(done.state).toBe('COMPLETED');
    expect(done.finalizedTimestamp).toMatch(/Z$/);

    const comps = await env.client.streamComponents(streamId);
    expect(comps.gateway.state).toBe('CLOSED');
    expect(comps.processors.map((p) => p.state)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);

    const out = await env.client.exportJson(streamId);
    if (out.outcome !== 'result') throw new Error('expected a result');
    expect(JSON.parse(out.text)).toEqual(out.result);
    expect(Buffer.from(out.bytes).toString('utf8')).toBe(out.text);
    expect(typeof out.result.transcription?.text).toBe('string');
    expect(out.result.utterances?.length).toBeGreaterThan(0);
    expect(out.result.summary?.content).toMatch(/^- /);

    const usage = await env.client.streamUsage(streamId, { currency: 'USD' });
    expect(usage).toMatchObject({ streamId, currency: 'USD' });
    const report = await env.client.usageReport({
      start: new Date(Date.now() - 3600_000),
      end: new Date(Date.now() + 60_000),
      granularity: 'HOURS',
    });
    expect(BigInt(report.totalMeasurements.measurements.ingressSize)).toBeGreaterThanOrEqual(BigInt(total));
    const eur = await env.client.usageReport({
      start: new Date(Date.now() - 86400_000).toISOString(),
      granularity: 'DAYS',
      currency: 'EUR',
    });
    expect(eur.currency).toBe('EUR');
  });

  it('mp3, mp4 video and speech all complete and export', async () => {
    const files = [
      await makeMp3(env.dir, 'a.mp3', 2),
      await makeMp4(env.dir, 'v.mp4', 2),
      await makeSpeechWav(env.dir, 's.wav', 'Good morning, a table for two please.'),
    ];
    for (const filePath of files) {
      const s = await env.client.upload({ templateId: TPL, streamId: randomUUID(), filePath });
      expect((await waitForState(env.client, s.streamId)).state).toBe('COMPLETED');
      const out = await env.client.exportJson(s.streamId);
      expect(out.outcome).toBe('result');
    }
  });

  it('export of a stream still READY: the service waits `waitMs`, then 504 (replayed, then transient)', async () => {
    const streamId = randomUUID();
    await env.client.upload({ templateId: TPL, streamId, filePath: await toneWav(env.dir, 300) });
    env.sleeps.length = 0;
    const e = await rejection(env.client.exportJson(streamId, { waitMs: 50 }));
    expect(e).toMatchObject({ statusCode: 504, internalErrorName: 'GENERAL_TIME_OUT_ERROR', errorClass: 'transient' });
    expect(env.sleeps).toHaveLength(RETRY.maxAttempts - 1);
    await env.client.cancelStream(streamId);
  });

  it('export of a stream that was not persisted is "no data" (204)', async () => {
    const streamId = randomUUID();
    await env.client.upload({ templateId: TPL, streamId, filePath: await toneWav(env.dir, 1), persist: false });
    await waitForState(env.client, streamId);
    expect(await env.client.exportJson(streamId)).toEqual({ outcome: 'no-data' });
  });

  it('a media link body (4.4b) and a non-media file that fails later', async () => {
    const link = await env.client.upload({
      templateId: TPL,
      streamId: randomUUID(),
      mediaUrl: 'https://media.example.org/a.mp3',
    });
    expect(link.state).toBe('READY');
    const junk = await makeGarbage(env.dir, 'junk.bin', 5000);
    const s = await env.client.upload({ templateId: TPL, streamId: randomUUID(), filePath: junk });
    const failed = await waitForState(env.client, s.streamId);
    expect(failed.state).toBe('FAILED');
    const comps = await env.client.streamComponents(s.streamId);
    expect(comps.processors.some((p) => /^\[InternalErrorName\.\w+\]/.test(p.stateDescription ?? ''))).toBe(true);
    const e = await rejection(env.client.exportJson(s.streamId));
    expect(e).toMatchObject({ statusCode: 409, errorClass: 'state' });
  });

  it('cancel: READY → FAILED; again → 409 of class state', async () => {
    const streamId = randomUUID();
    await env.client.upload({ templateId: TPL, streamId, filePath: await toneWav(env.dir, 300) });
    const r = await env.client.cancelStream(streamId);
    expect(r).toMatchObject({
      alreadyFinished: false,
      stream: { state: 'FAILED', stateDescription: 'Stream canceled by user' },
    });
    const e = await rejection(env.client.cancelStream(streamId));
    expect(e).toMatchObject({
      kind: 'http',
      statusCode: 409,
      internalErrorName: 'GENERAL_CONFLICT_ERROR',
      errorClass: 'state',
    });
  });
});

describe('service-side rejections', () => {
  it('unknown stream → 404 not-found; unknown template → 404; duplicate id → 409', async () => {
    expect(await rejection(env.client.findStream(randomUUID()))).toMatchObject({
      statusCode: 404,
      errorClass: 'not-found',
      internalErrorName: 'GENERAL_NOT_FOUND_ERROR',
    });
    const file = await toneWav(env.dir, 1);
    const e = await rejection(
      env.client.upload({ templateId: 'aaaaaaaaaaaaaaaaaaaaaaaa', streamId: randomUUID(), filePath: file }),
    );
    expect(e).toMatchObject({ statusCode: 404, internalErrorName: 'GENERAL_NOT_FOUND_ERROR' });
    const id = randomUUID();
    await env.client.upload({ templateId: TPL, streamId: id, filePath: file });
    expect(await rejection(env.client.upload({ templateId: TPL, streamId: id, filePath: file }))).toMatchObject({
      statusCode: 409,
      errorClass: 'state',
    });
  });

  it('forbidden patch → 400 STREAM_CONFIGURATION_BAD_PATCH with the service message', async () => {
    const e = await rejection(
      env.client.upload({
        templateId: TPL,
        streamId: randomUUID(),
        filePath: await toneWav(env.dir, 1),
        params: { langs: 'en' },
      }),
    );
    expect(e).toMatchObject({
      statusCode: 400,
      internalErrorName: 'STREAM_CONFIGURATION_BAD_PATCH',
      message: 'Forbidden patch: /langs',
      errorClass: 'request',
    });
    expect(e.title).toBeTruthy();
  });

  it('a rejection answered before the body is read still surfaces as the service error (both forms)', async () => {
    const big = join(env.dir, 'big.bin');
    const fh = await open(big, 'w');
    await fh.truncate(64 * 1024 * 1024);
    await fh.close();
    for (const multipart of [false, true]) {
      const e = await rejection(
        env.client.upload({
          templateId: TPL,
          streamId: randomUUID(),
          filePath: big,
          params: { langs: 'x' },
          multipart,
        }),
      );
      expect(e).toMatchObject({ statusCode: 400, internalErrorName: 'STREAM_CONFIGURATION_BAD_PATCH' });
    }
  });

  it('usage: end ≤ start and unknown currency are the service’s to reject', async () => {
    const t = new Date();
    expect(await rejection(env.client.usageReport({ start: t, end: t }))).toMatchObject({
      statusCode: 400,
      internalErrorName: 'USAGE_INTERVAL_TOO_SHORT',
    });
    expect(await rejection(env.client.usageReport({ currency: 'XYZ' }))).toMatchObject({
      statusCode: 400,
      internalErrorName: 'CURRENCY_ERROR',
    });
  });

  it('wrong API key → 401 credentials, not replayed', async () => {
    const bad = env.another({ credentials: { kind: 'apiKey', apiKey: 'wrong' } });
    const before = env.sb.stats().findAll ?? 0;
    const e = await rejection(bad.testConnection());
    expect(e).toMatchObject({
      statusCode: 401,
      errorClass: 'credentials',
      internalErrorName: 'GENERAL_AUTHENTICATION_ERROR',
    });
    expect((env.sb.stats().findAll ?? 0) - before).toBe(1);
  });
});

describe('configuration service', () => {
  it('reads a template and previews a patch', async () => {
    const t = await env.client.getTemplate(TPL);
    expect(t.id).toBe(TPL);
    expect(t.processors?.map((p) => p.id)).toContain('transcriber');
    const p = await env.client.previewTemplate(TPL, [
      { op: 'replace', path: '/processors/0/properties/vad', value: false },
    ]);
    expect(p.processors[0]?.properties.vad).toBe(false);
    expect(await rejection(env.client.getTemplate('bbbbbbbbbbbbbbbbbbbbbbbb'))).toMatchObject({ statusCode: 404 });
  });
});
