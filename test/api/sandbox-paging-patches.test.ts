// Pagination edges, multipart with prompts, escaping round trips, faults and both auth modes
// against the sandbox.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamDto } from '../../main/api/index.js';
import { PAGE, RETRY } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { rejection, startEnv, toneWav, waitForState, type Env } from './sandbox-env.js';

const TPL = TEMPLATE_IDS.transcription;

describe('listing', () => {
  let env: Env;
  const ids: string[] = [];
  beforeAll(async () => {
    // Real time: a 1 s file finishes in a second, a 300 s one is still processing when it is
    // cancelled (or listed) however slowly this machine runs today.
    env = await startEnv({ speedFactor: 1 });
    const short = await toneWav(env.dir, 1);
    const long = await toneWav(env.dir, 300);
    for (let i = 0; i < 5; i++) {
      const id = randomUUID();
      await env.client.upload({ templateId: TPL, streamId: id, filePath: i < 2 ? short : long, name: `s${i}` });
      ids.push(id);
    }
    // Two finish, three are cancelled (FAILED); a long one stays READY.
    await Promise.all(ids.slice(0, 2).map((id) => waitForState(env.client, id)));
    for (const id of ids.slice(2)) await env.client.cancelStream(id);
    const ready = randomUUID();
    await env.client.upload({ templateId: TPL, streamId: ready, filePath: long, name: 'long' });
    ids.push(ready);
  });
  afterAll(() => env.close());

  it('pages newest first; last page; empty page past the end', async () => {
    const p0 = await env.client.listStreams({ page: 0, size: 4 });
    expect(p0).toMatchObject({
      number: 0,
      size: 4,
      numberOfElements: 4,
      totalElements: 6,
      totalPages: 2,
      first: true,
      last: false,
    });
    expect(p0.content[0]?.name).toBe('long');
    const p1 = await env.client.listStreams({ page: 1, size: 4 });
    expect(p1).toMatchObject({ numberOfElements: 2, last: true, empty: false });
    const past = await env.client.listStreams({ page: 7, size: 4 });
    expect(past).toMatchObject({ content: [], empty: true, last: true });
    const all = [...p0.content, ...p1.content].map((s) => s.streamId);
    expect(new Set(all)).toEqual(new Set(ids));
  });

  it('size bounds: default, capped maximum, 1', async () => {
    expect((await env.client.listStreams()).size).toBe(PAGE.defaultSize);
    const big = await env.client.listStreams({ size: 1000 });
    expect(big.size).toBe(PAGE.maxSize);
    expect(big.content).toHaveLength(6);
    const one = await env.client.listStreams({ size: 1 });
    expect(one).toMatchObject({ numberOfElements: 1, totalPages: 6 });
  });

  it('one or several states (the name repeated)', async () => {
    const byState = async (states: StreamDto['state'][]): Promise<number> =>
      (await env.client.listStreams({ states, size: 100 })).totalElements;
    expect(await byState(['READY'])).toBe(1);
    expect(await byState(['FAILED'])).toBe(3);
    expect(await byState(['READY', 'COMPLETED'])).toBe(3);
    expect(await byState(['READY', 'COMPLETED', 'FAILED'])).toBe(6);
    expect(await byState(['EXPIRED'])).toBe(0);
  });

  it('iterates every page', async () => {
    const seen: string[] = [];
    for await (const s of env.client.iterateStreams({ size: 2 })) seen.push(s.streamId);
    expect(seen).toHaveLength(6);
    expect(env.sb.stats().findAll).toBeGreaterThanOrEqual(3);
  });
});

describe('patches and multipart', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(() => env.close());

  const prompt = `- List every caller by name.\n+ Add their phone numbers (e.g. +40 721 000 000).\n${'Context: '.repeat(120)}& done = 100% ?`;
  const props = (s: StreamDto, id: string): Record<string, unknown> =>
    (s.configuration.processors.find((p) => p.id === id)?.properties ?? {}) as Record<string, unknown>;

  it('a long prompt goes multipart and round-trips, leading +/- included', async () => {
    const before = env.sb.stats().upload ?? 0;
    const s = await env.client.upload({
      templateId: TPL,
      streamId: randomUUID(),
      filePath: await toneWav(env.dir, 1),
      params: {
        ask0: prompt,
        ask0System: '+1 call only',
        ask0Id: '-dash',
        language: ['en', 'fr'],
        summaryTone: 'informative',
        summary: true,
      },
    });
    expect((env.sb.stats().upload ?? 0) - before).toBe(1);
    const asks = props(s, 'llm').askAnything as Array<Record<string, unknown>>;
    expect(asks[0]).toMatchObject({ content: prompt, systemPrompt: '+1 call only', promptId: '-dash' });
    const done = await waitForState(env.client, s.streamId);
    expect(done.state).toBe('COMPLETED');
    const out = await env.client.exportJson(s.streamId);
    expect(out.outcome === 'result' && Object.keys(out.result.askAnything ?? {})).toEqual(['-dash']);
  });

  it('short +/- values in the query form round-trip too', async () => {
    const s = await env.client.upload({
      templateId: TPL,
      streamId: randomUUID(),
      filePath: await toneWav(env.dir, 1),
      multipart: false,
      params: { ask0: '- a+b & c=d', ask1: '+', etVocabulary: '-', language: 'en' },
    });
    const asks = props(s, 'llm').askAnything as Array<Record<string, unknown>>;
    expect(asks[0]?.content).toBe('- a+b & c=d');
    expect(asks[1]?.content).toBe('+');
    expect((props(s, 'llm').enhancedTranscription as Record<string, unknown>).vocabulary).toBe('-');
  });

  it('forced multipart for short values gives the same configuration as the query form', async () => {
    const params = { language: ['en', 'de'], vad: false, noSpeechThreshold: 0.3 };
    const file = await toneWav(env.dir, 1);
    const a = await env.client.upload({
      templateId: TPL,
      streamId: randomUUID(),
      filePath: file,
      params,
      multipart: true,
    });
    const b = await env.client.upload({ templateId: TPL, streamId: randomUUID(), filePath: file, params });
    expect(props(a, 'transcriber')).toEqual(props(b, 'transcriber'));
    expect(props(a, 'transcriber')).toMatchObject({ vad: false, noSpeechThreshold: 0.3 });
  });
});

describe('faults and auth against the sandbox', () => {
  let env: Env;
  // The sandbox's clock runs with the wall clock, plus what a test moves it on by (token expiry).
  let sandboxAhead = 0;
  beforeAll(async () => {
    env = await startEnv({
      tokenExpiresInS: 1,
      clientId: 'cid',
      clientSecret: 'csecret',
      now: () => Date.now() + sandboxAhead,
    });
  });
  afterAll(() => env.close());

  it('5xx bursts on reads are replayed with backoff; Retry-After honoured', async () => {
    env.sb.setFaults({ serverErrors: { next: 2, operations: ['findAll'], status: 503, retryAfterS: 2 } });
    env.sleeps.length = 0;
    await env.client.listStreams();
    expect(env.sleeps).toEqual([2000, 2000]);
    env.sb.setFaults({ serverErrors: { next: 1, operations: ['findAll'], status: 502 } });
    await env.client.listStreams();
    expect(env.sleeps[2]).toBeLessThan(RETRY.baseDelayMs);
    env.sb.setFaults({ rateLimit: { next: RETRY.maxAttempts, operations: ['findAll'], retryAfterS: 1 } });
    const e = await rejection(env.client.listStreams());
    expect(e).toMatchObject({
      statusCode: 429,
      internalErrorName: undefined,
      retryAfterMs: 1000,
      errorClass: 'transient',
    });
    env.sb.setFaults({});
  });

  it('uploads are never replayed: injected 503, reset mid-body, concurrency ceiling', async () => {
    const file = await toneWav(env.dir, 2);
    env.sb.setFaults({ serverErrors: { next: 1, operations: ['upload'], status: 503 } });
    env.sb.resetStats();
    expect(
      await rejection(env.client.upload({ templateId: TPL, streamId: randomUUID(), filePath: file })),
    ).toMatchObject({ statusCode: 503 });
    expect(env.sb.stats().upload).toBe(1);

    env.sb.setFaults({ uploadReset: { next: 1, afterBytes: 10_000 } });
    const id = randomUUID();
    const reset = await rejection(env.client.upload({ templateId: TPL, streamId: id, filePath: file }));
    expect(reset.kind).toBe('network');
    expect(env.sb.stats().upload).toBe(2);
    // §15.2: after a failed upload the stream may exist (truncated); the engine's job from here.
    expect((await env.client.findStream(id)).state).toBe('FAILED');

    env.sb.setFaults({ maxConcurrentStreams: 0 });
    const limited = await rejection(env.client.upload({ templateId: TPL, streamId: randomUUID(), filePath: file }));
    expect(limited).toMatchObject({ statusCode: 429, message: 'Maximum number of concurrent streams reached' });
    env.sb.setFaults({});
  });

  it('abort mid-upload → aborted; then cancel explicitly', async () => {
    const file = await toneWav(env.dir, 300);
    const ac = new AbortController();
    const id = randomUUID();
    const e = await rejection(
      env.client.upload({
        templateId: TPL,
        streamId: id,
        filePath: file,
        onProgress: (sent) => sent > 1_000_000 && ac.abort(),
        signal: ac.signal,
      }),
    );
    expect(e.kind).toBe('aborted');
    const s = await waitForState(env.client, id, ['FAILED']);
    expect(s.state).toBe('FAILED');
    await rejection(env.client.cancelStream(id));
  });

  it('client credentials: token fetched once, refreshed before expiry, streams work', async () => {
    let ahead = 0;
    const c = env.another({
      credentials: { kind: 'clientCredentials', clientId: 'cid', clientSecret: 'csecret' },
      now: () => Date.now() + ahead,
    });
    env.sb.resetStats();
    await Promise.all([c.listStreams(), c.listStreams(), c.usageReport()]);
    expect(env.sb.stats().token).toBe(1);
    const s = await c.upload({ templateId: TPL, streamId: randomUUID(), filePath: await toneWav(env.dir, 1) });
    expect(s.state).toBe('READY');
    // tokenExpiresInS 1 → refreshed after 0.8 s: the client's clock moved on 0.9 s.
    ahead = 900;
    await c.findStream(s.streamId);
    expect(env.sb.stats().token).toBe(2);
    expect(c.tokenFetches).toBe(2);
  });

  it('client credentials: a token that expired early is refreshed once on 401', async () => {
    const t = Date.now();
    const c = env.another({
      credentials: { kind: 'clientCredentials', clientId: 'cid', clientSecret: 'csecret' },
      now: () => t,
    });
    await c.listStreams();
    // The client's clock lags: it still trusts its token, the sandbox (1.1 s on) has expired it.
    sandboxAhead += 1100;
    env.sb.resetStats();
    await c.listStreams();
    expect(env.sb.stats()).toMatchObject({ findAll: 2, token: 1 });
  });

  it('bad client secret → credentials class, nothing else sent', async () => {
    const c = env.another({ credentials: { kind: 'clientCredentials', clientId: 'cid', clientSecret: 'nope' } });
    env.sb.resetStats();
    const e = await rejection(c.listStreams());
    expect(e.errorClass).toBe('credentials');
    expect(e.message).not.toContain('nope');
    expect(env.sb.stats()).toEqual({ token: 1 });
  });
});
