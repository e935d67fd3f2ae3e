import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, MULTIPART } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import type { StreamDto } from '../../main/service/types.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { call, uploadPath, waitFinished } from './client.js';

let sb: Sandbox;
let audio: Buffer;

beforeAll(async () => {
  sb = await startSandbox({ fixedProcessingMs: 30 });
  audio = await readFile(await makeToneWav(await makeMediaDir(), 't.wav', 20));
});
afterAll(() => sb.close());

type Part = [name: string, value: string | Blob];

function send(parts: Part[], params: Record<string, string | string[]> = {}, id = randomUUID()) {
  const fd = new FormData();
  for (const [name, value] of parts) fd.append(name, value);
  return call<StreamDto & { internalErrorName: string; message: string }>(
    sb.url,
    uploadPath({ streamConfigurationTemplateId: TEMPLATE_IDS.transcription, id, persist: 'true', ...params }),
    { method: 'POST', body: fd },
  );
}

const json = (v: unknown): Blob => new Blob([JSON.stringify(v)], { type: 'application/json' });
const media = (): Blob => new Blob([new Uint8Array(audio)], { type: 'application/octet-stream' });

describe('multipart upload (§4.4c, C9)', () => {
  it('applies the patches of the configuration part; names do not matter', async () => {
    const prompt = '- list every decision\n+ keep it short';
    const r = await send([
      [
        'whatever',
        json({
          patches: { ask0: prompt, summary: true, language: ['en', 'fr'] },
          webhook: { 'https://example.org/h': ['stream.completed'] },
        }),
      ],
      ['data', media()],
    ]);
    expect(r.status).toBe(200);
    const [transcriber, llm] = r.body.configuration.processors;
    expect(transcriber?.properties.allowedLanguages).toEqual(['en', 'fr']);
    expect(llm?.properties).toMatchObject({ summary: { enabled: true } });
    // Only a value of exactly "-" removes; "- list…" is a literal (a leading "+" would need \+).
    expect((llm?.properties.askAnything as Array<{ content: unknown }>)[0]?.content).toBe(prompt);
    expect(r.body.configuration.dynamicWebhookEndpoints.map((h) => h.url)).toEqual(['https://example.org/h']);
    expect((await waitFinished(sb.url, r.body.streamId)).state).toBe('COMPLETED');
  });

  it('a plain text configuration field works too, and query patches come before multipart ones', async () => {
    const r = await send(
      [
        ['configuration', JSON.stringify({ patches: { noSpeechThreshold: 0.7 } })],
        ['file', media()],
      ],
      { noSpeechThreshold: '0.2', vad: 'false' },
    );
    expect(r.status).toBe(200);
    expect(r.body.configuration.processors[0]?.properties).toMatchObject({ noSpeechThreshold: 0.7, vad: false });
  });

  it('measures the media of the data part', async () => {
    const id = randomUUID();
    await send(
      [
        ['configuration', json({})],
        ['file', media()],
      ],
      {},
      id,
    );
    await waitFinished(sb.url, id);
    const usage = await call<{ processors: Array<{ processedAudioLength: number; ingressSize: number }> }>(
      sb.url,
      `${API_PREFIX.usage}/usage/streams/${id}`,
    );
    expect(Math.abs((usage.body.processors[0]?.processedAudioLength ?? 0) - 20_000)).toBeLessThan(50);
    expect(usage.body.processors[0]?.ingressSize).toBe(audio.length);
  });

  it.each([
    [
      'bad JSON',
      (): Part[] => [
        ['configuration', new Blob(['{nope'], { type: 'application/json' })],
        ['file', media()],
      ],
      'HTTP_STREAM_CONFIGURATION_ERROR',
    ],
    ['only one part', (): Part[] => [['configuration', json({})]], 'HTTP_STREAM_CONFIGURATION_ERROR'],
    [
      'configuration over 1 MB',
      (): Part[] => [
        ['configuration', json({ patches: { ask0: 'x'.repeat(MULTIPART.configurationMaxBytes) } })],
        ['file', media()],
      ],
      'HTTP_STREAM_CONFIGURATION_ERROR',
    ],
    [
      'configuration over 1 MB as a text field',
      (): Part[] => [
        ['configuration', JSON.stringify({ patches: { ask0: 'x'.repeat(MULTIPART.configurationMaxBytes) } })],
        ['file', media()],
      ],
      'HTTP_STREAM_CONFIGURATION_ERROR',
    ],
    [
      'forbidden patch',
      (): Part[] => [
        ['configuration', json({ patches: { langs: 'en' } })],
        ['file', media()],
      ],
      'STREAM_CONFIGURATION_BAD_PATCH',
    ],
    [
      'bad webhook',
      (): Part[] => [
        ['configuration', json({ webhook: { 'http://localhost/x': ['stream.completed'] } })],
        ['file', media()],
      ],
      'WEBHOOK_CONFIGURATION_ERROR',
    ],
  ])('%s → 400 and no stream', async (_n, parts, name) => {
    const id = randomUUID();
    const r = await send(parts(), {}, id);
    expect([r.status, r.body.internalErrorName]).toEqual([400, name]);
    expect((await call(sb.url, `${API_PREFIX.stream}/streams/${id}`)).status).toBe(404);
  });
});
