// Pure parts of the client: query building, patch escaping, upload planning, Retry-After, backoff,
// error mapping from raw bodies, URL resolution. No network.
import { describe, expect, it } from 'vitest';
import { buildQuery, escapePatchValue, patchJsonValue, patchQueryPairs } from '../../main/api/query.js';
import { multipartFraming, planUpload, webhookQueryKey } from '../../main/api/upload-request.js';
import { CLIENT_BACKOFF, parseRetryAfter, retryDelay } from '../../main/api/retry.js';
import { backoffDelay } from '../../main/engine/backoff.js';
import { errorFromNetwork, errorFromResponse, textExcerpt } from '../../main/api/error-mapping.js';
import { ServiceError, classifyError } from '../../main/service/errors.js';
import { resolveUrls } from '../../main/api/client.js';
import { MULTIPART, PRODUCTION_URLS, RETRY } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';

const ctx = {
  service: 'stream-service',
  where: 'http://127.0.0.1:1/stream-service/api/v1/streams',
  operation: 'list streams',
};
const base = {
  templateId: TEMPLATE_IDS.transcription,
  streamId: '0b8f3c2e-6a41-4d0e-9a57-3f1d2c7e9b10',
  name: 'a.wav',
};

describe('query and patches (§4.3)', () => {
  it('percent-encodes every key and value, + as %2B', () => {
    expect(
      buildQuery([
        ['a b', '+1 & 2=3'],
        ['é', 'x/y?'],
      ]),
    ).toBe('a%20b=%2B1%20%26%202%3D3&%C3%A9=x%2Fy%3F');
  });
  it.each([
    ['+1 call', '\\+1 call'],
    ['- bullet', '\\- bullet'],
    ['-', '\\-'],
    ['plain', 'plain'],
    ['a+b-c', 'a+b-c'],
    ['\\x', '\\x'],
  ])('escapes a leading sign: %s', (v, want) => expect(escapePatchValue(v)).toBe(want));
  it('repeats the key for arrays, stringifies scalars', () => {
    expect(patchQueryPairs('language', ['en', 'de'])).toEqual([
      ['language', 'en'],
      ['language', 'de'],
    ]);
    expect(patchQueryPairs('summary', true)).toEqual([['summary', 'true']]);
    expect(patchQueryPairs('n', -1)).toEqual([['n', '\\-1']]);
    expect(patchJsonValue(['+x', 3, false])).toEqual(['\\+x', 3, false]);
  });
});

describe('upload planning', () => {
  it('query form: documented parameters, persist=true by default, patches after', () => {
    const plan = planUpload({ ...base, params: { language: ['en', 'de'], summary: true } });
    expect(plan.multipartConfiguration).toBeUndefined();
    expect(plan.query).toEqual([
      ['streamConfigurationTemplateId', base.templateId],
      ['id', base.streamId],
      ['name', 'a.wav'],
      ['persist', 'true'],
      ['language', 'en'],
      ['language', 'de'],
      ['summary', 'true'],
    ]);
  });
  it('marks patch keys that collide with documented parameters', () => {
    const plan = planUpload({ ...base, params: { name: 'x', 'webhook.stream': 'y' } });
    expect(plan.query.slice(-2)).toEqual([
      ['patches.name', 'x'],
      ['patches.webhook.stream', 'y'],
    ]);
  });
  it('webhooks: query keys per event, JSON map in multipart', () => {
    expect(webhookQueryKey('stream.completed')).toBe('webhook.stream.completed');
    expect(webhookQueryKey('stream.*')).toBe('webhook.stream');
    expect(webhookQueryKey('*')).toBe('webhook');
    const q = planUpload({
      ...base,
      webhooks: { 'https://h.example/x': ['stream.completed', 'stream.failed'], 'https://h.example/all': [] },
    });
    expect(q.query).toContainEqual(['webhook.stream.failed', 'https://h.example/x']);
    expect(q.query).toContainEqual(['webhook', 'https://h.example/all']);
    const m = planUpload({ ...base, multipart: true, webhooks: { 'https://h.example/all': [] } });
    expect(JSON.parse(m.multipartConfiguration ?? '')).toEqual({
      patches: {},
      webhook: { 'https://h.example/all': ['*'] },
    });
  });
  it('chooses multipart for a prompt (longText), a long value, or a long query; forced either way', () => {
    expect(planUpload({ ...base, params: { ask0: 'Who called?' } }).multipartConfiguration).toBeDefined();
    expect(planUpload({ ...base, params: { ask0: 'Who?' }, multipart: false }).multipartConfiguration).toBeUndefined();
    expect(
      planUpload({ ...base, params: { x: 'y'.repeat(MULTIPART.longValueChars + 1) } }).multipartConfiguration,
    ).toBeDefined();
    const many = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`k${i}`, 'v'.repeat(20)]));
    expect(planUpload({ ...base, params: many }).multipartConfiguration).toBeDefined();
    expect(planUpload({ ...base, params: { summary: true }, multipart: true }).multipartConfiguration).toBe(
      '{"patches":{"summary":true}}',
    );
  });
  it('multipart keeps documented parameters in the query and escapes string patches in JSON', () => {
    const plan = planUpload({ ...base, params: { ask0: '- list the callers', language: ['en'] } });
    expect(plan.query.map(([k]) => k)).toEqual(['streamConfigurationTemplateId', 'id', 'name', 'persist']);
    expect(JSON.parse(plan.multipartConfiguration ?? '')).toEqual({
      patches: { ask0: '\\- list the callers', language: ['en'] },
    });
  });
  it('rejects objects and oversize configurations as input errors', () => {
    expect(() => planUpload({ ...base, params: { x: { a: 1 } as never } })).toThrow(/string, number, boolean/);
    const huge = { ask0: 'x'.repeat(MULTIPART.configurationMaxBytes + 1) };
    expect(() => planUpload({ ...base, params: huge })).toThrowError(ServiceError);
    // 1 MB is 1,000,000 bytes (§4.4c): `{"patches":{"ask0":"…"}}` around the value is 23 bytes.
    expect(MULTIPART.configurationMaxBytes).toBe(1_000_000);
    const most = { ask0: 'x'.repeat(1_000_000 - 23) };
    expect(Buffer.byteLength(planUpload({ ...base, params: most }).multipartConfiguration!)).toBe(1_000_000);
    expect(() => planUpload({ ...base, params: { ask0: 'x'.repeat(1_000_000 - 22) } })).toThrow(
      'The upload configuration is 1,000,001 bytes; the service accepts at most 1,000,000 (1 MB)',
    );
  });
  it('frames the two parts in order with a sanitised file name', () => {
    const { head, tail } = multipartFraming('{"patches":{}}', 'a"b\r\n.wav', 'B');
    expect(head.toString()).toBe(
      '--B\r\nContent-Disposition: form-data; name="configuration"\r\nContent-Type: application/json\r\n\r\n{"patches":{}}\r\n' +
        '--B\r\nContent-Disposition: form-data; name="file"; filename="a%22b%0D%0A.wav"\r\nContent-Type: application/octet-stream\r\n\r\n',
    );
    expect(tail.toString()).toBe('\r\n--B--\r\n');
  });
});

describe('Retry-After and backoff', () => {
  const now = Date.parse('2025-03-04T09:15:27.000Z');
  it.each([
    ['3', 3000],
    [' 0 ', 0],
    ['Tue, 04 Mar 2025 09:15:37 GMT', 10_000],
    ['Tue, 04 Mar 2025 09:00:00 GMT', 0],
    ['soon', undefined],
    [undefined, undefined],
  ])('parses %s', (v, want) => expect(parseRetryAfter(v, now)).toBe(want));
  it('full jitter below an exponential ceiling capped at maxDelay, above a quarter of it', () => {
    // The client's attempt n (from 0) is the shared policy's failure n + 1.
    const clientDelay = (attempt: number, random: () => number): number =>
      backoffDelay(attempt + 1, CLIENT_BACKOFF, random);
    expect(clientDelay(0, () => 0.999)).toBe(Math.floor(0.999 * RETRY.baseDelayMs));
    expect(clientDelay(3, () => 0.5)).toBe(RETRY.baseDelayMs * 4);
    expect(clientDelay(30, () => 0.999)).toBeLessThan(RETRY.maxDelayMs);
    expect(clientDelay(5, () => 0)).toBe(Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 32) / 4);
  });
  const http = (statusCode: number, retryAfterMs?: number): ServiceError =>
    new ServiceError({ kind: 'http', message: 'x', statusCode, retryAfterMs });
  it('replays 429/5xx reads, honours and caps Retry-After, never 4xx, never uploads', () => {
    const r = (): number => 0.5;
    expect(retryDelay(http(503, 2000), 'idempotent', 0, r)).toBe(2000);
    expect(retryDelay(http(429, 10 * 60_000), 'idempotent', 0, r)).toBe(RETRY.retryAfterCapMs);
    expect(retryDelay(http(502), 'idempotent', 1, r)).toBe(RETRY.baseDelayMs);
    for (const s of RETRY.neverRetryStatus) expect(retryDelay(http(s), 'idempotent', 0, r)).toBeUndefined();
    expect(retryDelay(http(503), 'never', 0, r)).toBeUndefined();
    expect(retryDelay(http(503), 'network', 0, r)).toBeUndefined();
    expect(retryDelay(http(503), 'idempotent', RETRY.maxAttempts - 1, r)).toBeUndefined();
  });
  it('replays resets and timeouts, not refused connections or DNS failures', () => {
    const net = (code: string): ServiceError => new ServiceError({ kind: 'network', message: 'x', code });
    expect(retryDelay(net('ECONNRESET'), 'network', 0, () => 0)).toBe(Math.floor(RETRY.baseDelayMs / 4));
    expect(retryDelay(new ServiceError({ kind: 'timeout', message: 'x' }), 'network', 0, () => 0)).toBe(
      Math.floor(RETRY.baseDelayMs / 4),
    );
    expect(retryDelay(net('ECONNREFUSED'), 'idempotent', 0, () => 0)).toBeUndefined();
    expect(retryDelay(net('ENOTFOUND'), 'idempotent', 0, () => 0)).toBeUndefined();
    expect(retryDelay(new ServiceError({ kind: 'input', message: 'x' }), 'idempotent', 0, () => 0)).toBeUndefined();
  });
});

describe('error mapping from raw bodies', () => {
  it('ErrorResponse → every field', () => {
    const body = JSON.stringify({
      statusCode: 400,
      title: 'Invalid stream configuration',
      message: 'Forbidden patch: /langs',
      internalErrorName: 'STREAM_CONFIGURATION_BAD_PATCH',
      nestedErrors: [
        { statusCode: 400, title: 't', message: 'm', internalErrorName: 'GENERAL_VALIDATION_ERROR', nestedErrors: [] },
        'junk',
      ],
    });
    const e = errorFromResponse(400, body, ctx);
    expect(e).toMatchObject({
      kind: 'http',
      statusCode: 400,
      title: 'Invalid stream configuration',
      message: 'Forbidden patch: /langs',
      internalErrorName: 'STREAM_CONFIGURATION_BAD_PATCH',
    });
    expect(e.nestedErrors).toHaveLength(1);
    expect(e.errorClass).toBe('request');
  });
  it('OAuth error body of the token endpoint', () => {
    const e = errorFromResponse(
      400,
      '{"error":"invalid_client","error_description":"Invalid client credentials"}',
      ctx,
      undefined,
      'credentials',
    );
    expect(e.message).toBe('Invalid client credentials (invalid_client)');
    expect(e.errorClass).toBe('credentials');
  });
  it('HTML proxy page → status + excerpt without markup', () => {
    const html =
      '<html><head><style>body{color:red}</style><title>502</title></head><body><h1>502 Bad Gateway</h1><p>nginx&nbsp;1.25</p><script>x()</script></body></html>';
    const e = errorFromResponse(502, html, ctx);
    expect(e.message).toBe(
      'stream-service answered 502 Bad Gateway (list streams, http://127.0.0.1:1/stream-service/api/v1/streams): 502 502 Bad Gateway nginx 1.25',
    );
    expect(e.bodyExcerpt).not.toMatch(/[<>]/);
    expect(e.errorClass).toBe('transient');
  });
  it('empty body, JSON without error fields, long text', () => {
    expect(errorFromResponse(503, '', ctx).message).toBe(
      'stream-service answered 503 Service Unavailable with an empty body (list streams, http://127.0.0.1:1/stream-service/api/v1/streams).',
    );
    expect(errorFromResponse(500, '{"foo":1}', ctx).bodyExcerpt).toBe('{"foo":1}');
    expect(textExcerpt('x'.repeat(1000)).length).toBe(200);
  });
  it('network codes → actionable messages', () => {
    const refused = errorFromNetwork(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), ctx);
    expect(refused.message).toBe(
      'Could not reach stream-service at http://127.0.0.1:1/stream-service/api/v1/streams: connection refused. Is the service running and the URL right?',
    );
    const dns = errorFromNetwork({ cause: { code: 'ENOTFOUND' } }, ctx);
    expect(dns).toMatchObject({ kind: 'network', code: 'ENOTFOUND' });
    expect(dns.message).toMatch(/could not be resolved \(DNS\)/);
    expect(classifyError(dns)).toBe('transient');
  });
  it('toJSON carries no cause and no body', () => {
    const e = errorFromNetwork(Object.assign(new Error('boom'), { code: 'ECONNRESET' }), ctx);
    expect(Object.keys(e.toJSON())).not.toContain('cause');
  });
});

describe('connection URLs (C1)', () => {
  it('one base for all, per-service overrides, production defaults', () => {
    expect(resolveUrls({})).toEqual(PRODUCTION_URLS);
    const u = resolveUrls({ baseUrl: 'http://127.0.0.1:9000/', urls: { export: 'https://exp.example/root/' } });
    expect(u.stream).toBe('http://127.0.0.1:9000');
    expect(u.export).toBe('https://exp.example/root');
  });
  it('refuses credentials, other schemes, queries', () => {
    expect(() => resolveUrls({ baseUrl: 'http://u:p@h.example' })).toThrow(/user name or password/);
    expect(() => resolveUrls({ baseUrl: 'ftp://h.example' })).toThrow(/http:\/\//);
    expect(() => resolveUrls({ baseUrl: 'http://h.example/?a=1' })).toThrow(/query/);
    expect(() => resolveUrls({ baseUrl: 'not a url' })).toThrow(/not a valid URL/);
  });
});
