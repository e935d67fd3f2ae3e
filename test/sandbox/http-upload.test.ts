import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, SANDBOX } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import type { StreamUsageDto } from '../../main/service/types.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeGarbage, makeM4a, makeMediaDir, makeMp3, makeMp4, makeSpeechWav, makeToneWav } from '../helpers/media.js';
import { call, components, upload, uploadPath, waitFinished } from './client.js';

let sb: Sandbox;
let dir: string;
let speech: string;

beforeAll(async () => {
  sb = await startSandbox({ speedFactor: 0.02 });
  dir = await makeMediaDir();
  speech = await makeSpeechWav(dir, 'speech.wav', 'Hello, this is a short test of the upload gateway.');
});
afterAll(async () => {
  await sb.close();
  await rm(dir, { recursive: true, force: true });
});

const audioLength = async (id: string): Promise<number> => {
  const u = await call<StreamUsageDto>(sb.url, `${API_PREFIX.usage}/usage/streams/${id}`);
  return u.body.processors.find((p) => p.processorId === 'transcriber')?.processedAudioLength ?? -1;
};

describe('upload → READY → COMPLETED', () => {
  it('answers 200 with a full StreamDto, then completes; components follow §9.5', async () => {
    const id = randomUUID();
    const r = await upload(sb.url, speech, {
      id,
      template: TEMPLATE_IDS.diarization,
      params: { name: 'speech.wav', maxSpeakersNumber: '3', summary: 'true' },
    });
    expect(r.status).toBe(200);
    const s = r.body;
    expect(s).toMatchObject({
      streamId: id,
      groupId: id,
      name: 'speech.wav',
      state: 'READY',
      stateDescription: null,
      finalizedTimestamp: null,
      creatorId: SANDBOX.creatorId,
    });
    expect(s.createdTimestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(s.configuration.streamConfigurationTemplateId).toBe(TEMPLATE_IDS.diarization);
    expect(s.configuration.processors.map((p) => p.id)).toEqual(['transcriber', 'diarization', 'llm']);
    expect(s.configuration.processors[0]?.propertiesSchema).toBe(
      'tech.vatis.schema.stream.processor.properties.fasterwhisper.FasterWhisperProcessorPropertiesDto',
    );
    expect(s.configuration.processors[1]?.properties).toMatchObject({ maxSpeakersNumber: 3 });
    expect(s.configuration.processors[2]?.properties).toMatchObject({ summary: { enabled: true } });
    expect(s.configuration.processors.every((p) => p.egress.persist)).toBe(true);
    expect(Object.keys(s.configuration.dataSinks)).toEqual(['transcriber', 'diarization', 'llm']);
    expect(s.configuration.dynamicWebhookEndpoints).toEqual([]);

    const during = await components(sb.url, id);
    expect(during.gateway.state).toBe('CLOSED');
    expect(during.processors[0]?.state).toMatch(/RUNNING|COMPLETED/);

    const done = await waitFinished(sb.url, id);
    expect(done.state).toBe('COMPLETED');
    expect(done.finalizedTimestamp).not.toBeNull();
    const c = await components(sb.url, id);
    expect(c.processors.map((p) => p.state)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    expect(c.stateChangedTimestamp).toBe(done.finalizedTimestamp);
  });

  it('defaults: generated id, group = stream id, name "Stream xxxxxx", not persisted', async () => {
    const r = await call<{
      streamId: string;
      groupId: string;
      name: string;
      configuration: { processors: Array<{ egress: { persist: boolean } }> };
    }>(sb.url, uploadPath({ streamConfigurationTemplateId: TEMPLATE_IDS.transcription }), {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(Buffer.from('x')),
    });
    expect(r.status).toBe(200);
    expect(r.body.groupId).toBe(r.body.streamId);
    expect(r.body.name).toMatch(/^Stream [a-z]{6}$/);
    expect(r.body.configuration.processors.some((p) => p.egress.persist)).toBe(false);
  });

  it('llm without a prompt completes with "Stream has no prompt enabled"', async () => {
    const r = await upload(sb.url, speech);
    await waitFinished(sb.url, r.body.streamId);
    const llm = (await components(sb.url, r.body.streamId)).processors.find((p) => p.processorId === 'llm');
    expect(llm).toMatchObject({ state: 'COMPLETED', stateDescription: 'Stream has no prompt enabled' });
  });

  it('keeps a supplied groupId', async () => {
    const groupId = randomUUID();
    const r = await upload(sb.url, speech, { params: { groupId } });
    expect(r.body.groupId).toBe(groupId);
  });
});

describe('measures the real media', () => {
  it.each([
    ['wav', (d: string) => makeToneWav(d, 't.wav', 2), 2000],
    ['mp3', (d: string) => makeMp3(d, 't.mp3', 3), 3000],
    ['mp4', (d: string) => makeMp4(d, 't.mp4', 2), 2000],
    ['m4a', (d: string) => makeM4a(d, 't.m4a', 2), 2000],
  ])('%s', async (_k, make, expectedMs) => {
    const r = await upload(sb.url, await make(dir));
    expect((await waitFinished(sb.url, r.body.streamId)).state).toBe('COMPLETED');
    const ms = await audioLength(r.body.streamId);
    expect(Math.abs(ms - expectedMs)).toBeLessThan(150);
  });

  it.each([
    ['an empty body', async () => Buffer.alloc(0), 'No data received'],
    ['non-media bytes', async () => makeGarbage(dir, 'g.bin'), 'Invalid data found when processing input'],
  ])('%s fails the stream with a transcoding error (§9.5)', async (_k, body, detail) => {
    const r = await upload(sb.url, await body());
    expect(r.status).toBe(200);
    const done = await waitFinished(sb.url, r.body.streamId);
    expect([done.state, done.stateDescription]).toEqual(['FAILED', null]);
    const c = await components(sb.url, r.body.streamId);
    expect(c.processors[0]?.state).toBe('ERROR');
    expect(c.processors[0]?.stateDescription).toMatch(
      /^\[InternalErrorName\.PROCESSOR_TRANSCODING_ERROR\] .*Invalid data found when processing input/,
    );
    expect(c.processors[0]?.stateDescription).toContain(detail);
    expect(c.processors[1]).toMatchObject({ state: 'ERROR', stateDescription: 'External close signal received' });
  });
});

describe('creation errors (C11)', () => {
  const TX = { streamConfigurationTemplateId: TEMPLATE_IDS.transcription };
  const post = (params: Record<string, string | string[]>, headers: Record<string, string> = {}) =>
    call<{ statusCode: number; internalErrorName: string; message: string; nestedErrors: unknown[] }>(
      sb.url,
      uploadPath(params),
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', ...headers },
        body: new Uint8Array(Buffer.from('data')),
      },
    );

  it.each([
    ['missing template', {}, 400, 'GENERAL_VALIDATION_ERROR'],
    ['unknown template', { streamConfigurationTemplateId: 'ffffffffffffffffffffffff' }, 404, 'GENERAL_NOT_FOUND_ERROR'],
    ['malformed id', { ...TX, id: 'nope' }, 400, 'GENERAL_VALIDATION_ERROR'],
    ['malformed groupId', { ...TX, groupId: '12' }, 400, 'GENERAL_VALIDATION_ERROR'],
    ['bad persist', { ...TX, persist: 'yes' }, 400, 'GENERAL_VALIDATION_ERROR'],
    ['forbidden patch', { ...TX, langs: 'en' }, 400, 'STREAM_CONFIGURATION_BAD_PATCH'],
    ['bad value', { ...TX, summaryTone: 'formal' }, 400, 'PROCESSOR_PROPERTIES_VALIDATION_ERROR'],
    [
      'language on Romanian',
      { streamConfigurationTemplateId: TEMPLATE_IDS.romanian, language: 'ro' },
      400,
      'STREAM_CONFIGURATION_BAD_PATCH',
    ],
    [
      'webhook on loopback',
      { ...TX, 'webhook.stream.completed': 'http://127.0.0.1/h' },
      400,
      'WEBHOOK_CONFIGURATION_ERROR',
    ],
    [
      'webhook bad event',
      { ...TX, 'webhook.stream.started': 'https://example.org/h' },
      400,
      'WEBHOOK_CONFIGURATION_ERROR',
    ],
    ['webhook ftp', { ...TX, webhook: 'ftp://example.org/h' }, 400, 'WEBHOOK_CONFIGURATION_ERROR'],
    [
      'four webhooks',
      { ...TX, webhook: ['https://a.org', 'https://b.org', 'https://c.org', 'https://d.org'] },
      400,
      'WEBHOOK_CONFIGURATION_ERROR',
    ],
  ])('%s → %i %s', async (_n, params, status, name) => {
    const r = await post(params);
    expect([r.status, r.body.statusCode, r.body.internalErrorName]).toEqual([status, status, name]);
    expect(r.body.nestedErrors).toEqual([]);
  });

  it('the documented message for an unknown key', async () => {
    const r = await post({ ...TX, langs: 'en' });
    expect(r.body).toMatchObject({ title: 'Invalid stream configuration', message: 'Forbidden patch: /langs' });
  });

  it('a header patch is applied; a malformed one is a 400', async () => {
    const header = JSON.stringify([{ op: 'replace', path: '/processors/0/properties/vad', value: false }]);
    const ok = await upload(sb.url, speech, { headers: { 'x-vat-meta-template-patch': header } });
    expect(ok.body.configuration.processors[0]?.properties.vad).toBe(false);
    const bad = await post(TX, { 'x-vat-meta-template-patch': '[{' });
    expect([bad.status, bad.body.internalErrorName]).toEqual([400, 'HTTP_STREAM_CONFIGURATION_ERROR']);
  });

  it('a duplicate id is 409 and the first stream is untouched', async () => {
    const id = randomUUID();
    expect((await upload(sb.url, speech, { id, params: { name: 'first' } })).status).toBe(200);
    const again = await upload(sb.url, speech, { id, params: { name: 'second' } });
    expect([again.status, (again.body as unknown as { internalErrorName: string }).internalErrorName]).toEqual([
      409,
      'GENERAL_CONFLICT_ERROR',
    ]);
    expect((await call<{ name: string }>(sb.url, `${API_PREFIX.stream}/streams/${id}`)).body.name).toBe('first');
  });

  it('valid public dynamic webhooks are recorded, one endpoint per URL', async () => {
    const r = await upload(sb.url, speech, {
      params: {
        'webhook.stream.completed': 'https://example.org/h',
        'webhook.stream.failed': 'https://example.org/h',
        webhook: 'https://other.org/all',
      },
    });
    expect(r.status).toBe(200);
    const hooks = r.body.configuration.dynamicWebhookEndpoints;
    expect(hooks.map((h) => [h.url, h.events.sort()])).toEqual([
      ['https://example.org/h', ['stream.completed', 'stream.failed']],
      ['https://other.org/all', ['*']],
    ]);
  });
});

describe('data directory', () => {
  it('keeps the exact bytes as <streamId>.bin in a caller-chosen dataDir', async () => {
    const dataDir = await makeMediaDir('sluice-data-');
    const s = await startSandbox({ dataDir, fixedProcessingMs: 20 });
    try {
      const r = await upload(s.url, speech);
      await waitFinished(s.url, r.body.streamId);
      expect(await readFile(join(dataDir, `${r.body.streamId}.bin`))).toEqual(await readFile(speech));
    } finally {
      await s.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('streaming', () => {
  // The client runs in a child process so that only the sandbox's memory is measured here.
  const CLIENT = `
    const http = require('node:http');
    const [url, auth, mb] = process.argv.slice(1);
    const req = http.request(url, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/octet-stream' } });
    req.on('response', (res) => { process.stdout.write(String(res.statusCode)); res.resume(); });
    const chunk = Buffer.alloc(1024 * 1024, 0x5a);
    let left = Number(mb);
    const pump = () => { while (left > 0) { left--; if (!req.write(chunk)) return void req.once('drain', pump); } req.end(); };
    pump();`;

  it('streams a 512 MB body to disk without buffering it', async () => {
    const mb = 512;
    const id = randomUUID();
    const url = sb.url + uploadPath({ streamConfigurationTemplateId: TEMPLATE_IDS.transcription, id, persist: 'true' });
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const { stdout } = await promisify(execFile)(process.execPath, [
      '-e',
      CLIENT,
      url,
      `Basic ${SANDBOX.apiKey}`,
      String(mb),
    ]);
    clearInterval(timer);
    expect(stdout).toBe('200');
    expect(peak - before).toBeLessThan(128 * 1024 * 1024);
    await waitFinished(sb.url, id);
    const u = await call<StreamUsageDto>(sb.url, `${API_PREFIX.usage}/usage/streams/${id}`);
    expect(u.body.processors[0]?.ingressSize).toBe(mb * 1024 * 1024);
  }, 60_000);
});
