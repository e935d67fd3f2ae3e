import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import type { Page, StreamConfigurationTemplateDto } from '../../main/service/types.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { call } from './client.js';

let sb: Sandbox;
const BASE = `${API_PREFIX.configuration}/stream-configuration-templates`;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

describe('configuration service (§13, C30)', () => {
  it('lists the built-in templates, paged', async () => {
    const r = await call<Page<StreamConfigurationTemplateDto>>(sb.url, BASE);
    expect(r.status).toBe(200);
    expect(r.body.content.map((t) => t.id)).toEqual(
      expect.arrayContaining([
        TEMPLATE_IDS.transcription,
        TEMPLATE_IDS.diarization,
        TEMPLATE_IDS.romanian,
        TEMPLATE_IDS.romanianDiarization,
        TEMPLATE_IDS.ping,
      ]),
    );
    expect(r.body.content.find((t) => t.id === TEMPLATE_IDS.transcode)?.name).toMatch(/sandbox/);
    const p1 = await call<Page<StreamConfigurationTemplateDto>>(sb.url, `${BASE}?page=1&size=2`);
    expect([p1.body.number, p1.body.size, p1.body.content.length]).toEqual([1, 2, 2]);
    expect((await call(sb.url, `${BASE}?size=0`)).status).toBe(400);
  });

  it('gets one template with processors, schemas and aliases', async () => {
    const r = await call<StreamConfigurationTemplateDto>(sb.url, `${BASE}/${TEMPLATE_IDS.diarization}`);
    expect(r.body.processors.map((p) => [p.id, p.previousProcessorId])).toEqual([
      ['transcriber', null],
      ['diarization', 'transcriber'],
      ['llm', 'diarization'],
    ]);
    const llm = r.body.processors[2]!;
    expect(llm.patchAliases.summaryTone).toBe('properties/summary/properties/tone');
    expect(llm.propertiesSchema).toBe('tech.vatis.schema.stream.processor.properties.llm.LlmPropertiesDto');
    expect((await call(sb.url, `${BASE}/ffffffffffffffffffffffff`)).status).toBe(404);
  });

  it('PATCH previews patches without changing the template', async () => {
    const patch = JSON.stringify([{ op: 'replace', path: '/processors/1/properties/maxSpeakersNumber', value: 4 }]);
    const r = await call<StreamConfigurationTemplateDto>(sb.url, `${BASE}/${TEMPLATE_IDS.diarization}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonPatches: [patch] }),
    });
    expect(r.status).toBe(200);
    expect(r.body.processors[1]?.properties.maxSpeakersNumber).toBe(4);
    const again = await call<StreamConfigurationTemplateDto>(sb.url, `${BASE}/${TEMPLATE_IDS.diarization}`);
    expect(again.body.processors[1]?.properties.maxSpeakersNumber).toBeNull();
  });

  it('PATCH with a forbidden patch is a 400; GET applies the header patch', async () => {
    const bad = await call<{ internalErrorName: string }>(sb.url, `${BASE}/${TEMPLATE_IDS.romanian}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonPatches: [JSON.stringify({ op: 'add', path: '/language', value: 'ro' })] }),
    });
    expect([bad.status, bad.body.internalErrorName]).toEqual([400, 'STREAM_CONFIGURATION_BAD_PATCH']);
    const got = await call<StreamConfigurationTemplateDto>(sb.url, `${BASE}/${TEMPLATE_IDS.transcription}`, {
      headers: { 'x-vat-meta-template-patch': JSON.stringify([{ op: 'replace', path: '/summary', value: true }]) },
    });
    expect(got.body.processors[1]?.properties).toMatchObject({ summary: { enabled: true } });
  });

  it('PUT is refused with 403', async () => {
    const r = await call<{ internalErrorName: string }>(sb.url, BASE, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect([r.status, r.body.internalErrorName]).toEqual([403, 'GENERAL_AUTHORIZATION_ERROR']);
  });

  it('an unknown path is a 404 ErrorResponse', async () => {
    const r = await call<{ internalErrorName: string; nestedErrors: unknown[] }>(sb.url, '/nope');
    expect([r.status, r.body.internalErrorName, r.body.nestedErrors]).toEqual([404, 'GENERAL_NOT_FOUND_ERROR', []]);
  });
});
