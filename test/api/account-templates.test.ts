// The account's templates over HTTP against the sandbox: every page of the configuration service's
// list, the catalogue Sluice builds from it, the service's preview as "Check these settings", an
// upload to the account's own template, and what happens when the service cannot be read.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateCatalogueCache } from '../../main/adapters/queue/template-catalogue-cache.js';
import { checkTemplateSettings } from '../../main/adapters/queue/template-check.js';
import { createClient } from '../../main/api/index.js';
import { templateProblems, uncheckedNotice } from '../../main/engine/params.js';
import { catalogueNotice } from '../../main/service/template-catalogue.js';
import { TEMPLATES } from '../../main/service/templates.js';
import { rejection, startEnv, toneWav, waitForState, type Env } from './sandbox-env.js';

const ACME = 'acme-newsroom-v2';
let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(() => env.close());

describe('the account’s templates', () => {
  it('are read page by page until the last, the account’s own after the public ones', async () => {
    const first = await env.client.listTemplates({ page: 0, size: 2 });
    expect(first).toMatchObject({ number: 0, size: 2, last: false });
    const ids: string[] = [];
    for await (const t of env.client.iterateTemplates({ size: 2 })) ids.push(t.id);
    expect(ids).toEqual([...TEMPLATES.map((t) => t.id), ACME]);
  });

  it('an account template is described from its template-level and processor-level aliases', async () => {
    const catalogue = await new TemplateCatalogueCache(() => env.client.iterateTemplates({ size: 3 })).get();
    expect(catalogue).toMatchObject({ source: 'account' });
    expect(catalogueNotice(catalogue)).toBeUndefined();
    const acme = catalogue.templates.find((t) => t.id === ACME);
    expect(acme).toMatchObject({ account: true, diarizes: true, processors: ['transcriber', 'diarization', 'llm'] });
    const byName = new Map(acme?.params.map((p) => [p.name, p]));
    // Named like a public parameter: Sluice's richer description (label, type, value list).
    expect(byName.get('language')).toMatchObject({ label: 'Language', type: 'language', repeatable: true });
    expect(byName.get('language')?.values).toContain('ro');
    // Its own aliases: typed from the property each targets.
    expect(byName.get('stream.summaryStyle')).toMatchObject({
      type: 'string',
      label: 'Summary style',
      processor: 'llm',
      path: ['summary', 'properties', 'tone'],
      default: 'conversational',
    });
    expect(byName.get('transcriber.noSpeechThreshold')).toMatchObject({ type: 'number', default: 0.5 });
    expect(templateProblems(ACME, { language: ['en', 'de'], 'stream.summaryStyle': 'informative' }, catalogue)).toEqual(
      [],
    );
    expect(templateProblems(ACME, { vad: true }, catalogue).map((p) => p.field)).toEqual(['params.vad']);
  });

  it('“Check these settings” is the service’s preview: accepted, refused with its reason, unknown template', async () => {
    const catalogue = await new TemplateCatalogueCache(() => env.client.iterateTemplates()).get();
    const port = { previewTemplate: env.client.previewTemplate.bind(env.client) };
    await expect(
      checkTemplateSettings(port, catalogue, ACME, { language: ['en', 'ro'], 'stream.summaryStyle': 'informative' }),
    ).resolves.toEqual({ ok: true, checkedBy: 'service', problems: [] });
    const refused = await checkTemplateSettings(port, catalogue, ACME, { 'transcriber.noSpeechThreshold': 3 });
    expect(refused).toMatchObject({ ok: false, checkedBy: 'service' });
    expect(refused.problems).toEqual([
      {
        field: 'params.transcriber.noSpeechThreshold',
        message: expect.stringMatching(/noSpeechThreshold.*maximum 1.*PROCESSOR_PROPERTIES_VALIDATION_ERROR/),
      },
    ]);
    const local = await checkTemplateSettings(port, catalogue, TEMPLATES[1]?.id ?? '', { summaryTone: 'formal' });
    expect(local).toMatchObject({ ok: false, checkedBy: 'sluice', problems: [{ field: 'params.summaryTone' }] });
    const unknown = await checkTemplateSettings(port, catalogue, 'not-on-this-account', { language: 'de' });
    expect(unknown.notice).toMatch(/cannot describe template not-on-this-account/);
    expect(unknown).toMatchObject({
      ok: false,
      problems: [{ field: 'templateId', message: expect.stringMatching(/GENERAL_NOT_FOUND_ERROR/) }],
    });
  });

  it('an upload to the account’s template runs to COMPLETED with the languages chosen', async () => {
    const streamId = randomUUID();
    const file = await toneWav(env.dir, 1);
    await env.client.upload({
      templateId: ACME,
      streamId,
      filePath: file,
      name: 'a.wav',
      params: { language: ['en', 'de'] },
    });
    const done = await waitForState(env.client, streamId);
    expect(done.state).toBe('COMPLETED');
    expect(done.configuration.streamConfigurationTemplateId).toBe(ACME);
    // Several languages: the service switches among them (§11.2).
    const transcriber = done.configuration.processors.find((p) => p.id === 'transcriber');
    expect(transcriber?.properties).toMatchObject({ language: null, allowedLanguages: ['en', 'de'] });
    const bad = await rejection(
      env.client.upload({
        templateId: ACME,
        streamId: randomUUID(),
        filePath: file,
        name: 'b.wav',
        params: { vad: 'false' },
      }),
    );
    expect([bad.statusCode, bad.internalErrorName]).toEqual([400, 'STREAM_CONFIGURATION_BAD_PATCH']);
  });

  it('unreachable: the public templates stay, with the reason; a later failure keeps the account’s list', async () => {
    const dead = createClient({ baseUrl: 'http://127.0.0.1:9', credentials: { kind: 'apiKey', apiKey: 'k' } });
    try {
      const offline = await new TemplateCatalogueCache(() => dead.iterateTemplates()).get();
      expect(offline.source).toBe('builtin');
      expect(offline.templates.map((t) => t.id)).toEqual(TEMPLATES.map((t) => t.id));
      expect(catalogueNotice(offline)).toMatch(
        /could not be read \(.*connection refused.*\)\. Sluice offers the public/,
      );
      expect(uncheckedNotice(ACME, offline)).toMatch(/could not be read/);
      expect(templateProblems(ACME, { anything: 'goes' }, offline)).toEqual([]);
    } finally {
      await dead.close();
    }
    let fail = false;
    const cache = new TemplateCatalogueCache(
      () =>
        fail
          ? { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('403 refused')) }) }
          : env.client.iterateTemplates(),
      { ttlMs: 0, retryMs: 0 },
    );
    expect((await cache.get()).problem).toBeUndefined();
    fail = true;
    const kept = await cache.get();
    expect(kept).toMatchObject({ source: 'account', problem: '403 refused' });
    expect(kept.templates.some((t) => t.id === ACME)).toBe(true);
    expect(catalogueNotice(kept)).toMatch(/keeps offering the templates it read before/);
  });

  it('any currency code goes to the service, which decides', async () => {
    const gbp = await env.client.usageReport({ currency: 'GBP' });
    expect(gbp.currency).toBe('GBP');
    const e = await rejection(env.client.usageReport({ currency: 'XTS' }));
    expect([e.statusCode, e.internalErrorName]).toEqual([400, 'CURRENCY_ERROR']);
  });
});
