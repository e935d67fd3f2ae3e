// Error paths over real HTTP against deliberately broken loopback servers (and a refused port and
// an unresolvable host): what each failure becomes, and what is replayed.
import { describe, expect, it } from 'vitest';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createClient } from '../../main/api/index.js';
import { RETRY } from '../../main/service/policy.js';
import { clients, failure, KEY, setup, sleeps, useCleanup } from './bad-env.js';
import { fakeStream, json, STREAM_ID } from './bad-server.js';

useCleanup();

describe('non-JSON and odd answers', () => {
  it('HTML proxy page: status + text excerpt, replayed up to maxAttempts for a read', async () => {
    const { sb, client } = await setup((_q, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>');
    });
    const e = await failure(client.findStream(STREAM_ID));
    expect(e).toMatchObject({
      kind: 'http',
      statusCode: 502,
      bodyExcerpt: '502 Bad Gateway nginx',
      errorClass: 'transient',
    });
    expect(e.message).toContain('stream-service answered 502 Bad Gateway');
    expect(sb.hits).toHaveLength(RETRY.maxAttempts);
    expect(sleeps).toHaveLength(RETRY.maxAttempts - 1);
    // Authorization sent as issued.
    expect(sb.hits[0]?.headers.authorization).toBe(`Basic ${KEY}`);
  });

  it('empty body 503 with Retry-After (seconds, then HTTP date) is honoured, then succeeds', async () => {
    const { sb, client } = await setup((_q, res, _h, n) => {
      if (n === 1) return void res.writeHead(503, { 'retry-after': '2' }).end();
      if (n === 2) return void res.writeHead(429, { 'retry-after': new Date(Date.now() + 5000).toUTCString() }).end();
      json(res, 200, fakeStream());
    });
    const s = await client.findStream(STREAM_ID);
    expect(s.streamId).toBe(STREAM_ID);
    expect((s as unknown as Record<string, unknown>).extra).toEqual({ kept: true });
    expect(sb.hits).toHaveLength(3);
    expect(sleeps[0]).toBe(2000);
    expect(sleeps[1]).toBeGreaterThan(3000);
    expect(sleeps[1]).toBeLessThanOrEqual(5000);
  });

  it('empty body error message', async () => {
    const { client } = await setup((_q, res) => void res.writeHead(500).end());
    const e = await failure(client.streamComponents(STREAM_ID));
    expect(e.message).toMatch(
      /^stream-service answered 500 Internal Server Error with an empty body \(read stream components, http:\/\/127\.0\.0\.1:\d+\/stream-service\/api\/v1\/streams\/.+\/components\)\.$/,
    );
  });

  it.each([400, 401, 403, 404, 409])('%i is never replayed', async (status) => {
    const { sb, client } = await setup((_q, res) =>
      json(res, status, {
        statusCode: status,
        title: 'T',
        message: `m${status}`,
        internalErrorName: 'GENERAL_BAD_REQUEST_ERROR',
        nestedErrors: [],
      }),
    );
    const e = await failure(client.listStreams());
    expect(e).toMatchObject({ statusCode: status, message: `m${status}`, title: 'T' });
    expect(sb.hits).toHaveLength(1);
  });

  it('a 200 that is not the service JSON (captive portal) is a typed error', async () => {
    const { client } = await setup(
      (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'),
    );
    const e = await failure(client.findStream(STREAM_ID));
    expect(e.message).toMatch(/answered 200 but the body is not a stream record \(not JSON\)/);
  });
});

describe('no answer', () => {
  it('connection reset: replayed, then an actionable network error', async () => {
    const { sb, client } = await setup((req) => req.socket.destroy());
    const e = await failure(client.listStreams({ states: ['READY'] }));
    expect(e.kind).toBe('network');
    expect(e.errorClass).toBe('transient');
    expect(e.message).toMatch(/was closed before an answer arrived \(list streams\)/);
    expect(sb.hits).toHaveLength(RETRY.maxAttempts);
  });

  it('connection refused: not replayed, says what to check', async () => {
    const probe = createNetServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      credentials: { kind: 'apiKey', apiKey: KEY },
      sleep: async (ms) => void sleeps.push(ms),
    });
    clients.push(client);
    const e = await failure(client.findStream(STREAM_ID));
    expect(e.message).toBe(
      `Could not reach stream-service at http://127.0.0.1:${port}/stream-service/api/v1/streams/${STREAM_ID}: connection refused. Is the service running and the URL right?`,
    );
    expect(e).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
    expect(sleeps).toHaveLength(0);
  });

  it('DNS failure', async () => {
    const client = createClient({
      baseUrl: 'http://nonexistent.invalid',
      credentials: { kind: 'apiKey', apiKey: KEY },
    });
    clients.push(client);
    const e = await failure(client.usageReport());
    expect(e.kind).toBe('network');
    expect(e.code).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
    expect(e.message).toMatch(
      /^Could not reach usage-service at http:\/\/nonexistent\.invalid\/usage-service\/api\/v1\/usage\/report: the host name could not be resolved/,
    );
  });

  it('timeout: per-operation, replayed, then kind timeout', async () => {
    const { sb, client } = await setup(() => undefined, { timeouts: { read: 150 } });
    const e = await failure(client.findStream(STREAM_ID));
    expect(e.kind).toBe('timeout');
    expect(e.message).toMatch(/did not answer within 150 ms \(find stream\)/);
    expect(sb.hits).toHaveLength(RETRY.maxAttempts);
  });

  it('abort via AbortSignal: kind aborted, no replay', async () => {
    const { sb, client } = await setup(() => undefined);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const e = await failure(client.exportJson(STREAM_ID, { signal: ac.signal }));
    expect(e).toMatchObject({ kind: 'aborted', errorClass: 'aborted' });
    expect(sb.hits).toHaveLength(1);
  });
});

describe('cancel replay rules', () => {
  it('a 5xx answer is not replayed', async () => {
    const { sb, client } = await setup((_q, res) => void res.writeHead(503).end());
    await failure(client.cancelStream(STREAM_ID));
    expect(sb.hits).toHaveLength(1);
  });
  it('409 on the first attempt is a state error', async () => {
    const { client } = await setup((_q, res) =>
      json(res, 409, {
        statusCode: 409,
        title: 'Conflict',
        message: 'Stream is COMPLETED',
        internalErrorName: 'GENERAL_CONFLICT_ERROR',
        nestedErrors: [],
      }),
    );
    const e = await failure(client.cancelStream(STREAM_ID));
    expect(e.errorClass).toBe('state');
  });
  it('reset, then 409 on the replay: the lost first attempt did it → re-read', async () => {
    const { sb, client } = await setup((req, res, hit, n) => {
      if (n === 1) return req.socket.destroy();
      if (hit.method === 'PUT')
        return json(res, 409, {
          statusCode: 409,
          title: 'Conflict',
          message: 'FAILED',
          internalErrorName: 'GENERAL_CONFLICT_ERROR',
          nestedErrors: [],
        });
      json(res, 200, fakeStream('FAILED'));
    });
    const r = await client.cancelStream(STREAM_ID);
    expect(r).toMatchObject({ alreadyFinished: true, stream: { state: 'FAILED' } });
    expect(sb.hits.map((h) => h.method)).toEqual(['PUT', 'PUT', 'GET']);
  });
});

describe('credentials stay out of sight', () => {
  it('JSON and inspect of the client show no secret', async () => {
    const { inspect } = await import('node:util');
    const c = createClient({
      baseUrl: 'http://127.0.0.1:1',
      credentials: { kind: 'clientCredentials', clientId: 'cid-SECRET', clientSecret: 'csecret-SECRET' },
    });
    clients.push(c);
    expect(JSON.stringify(c)).not.toMatch(/SECRET/);
    expect(inspect(c, { depth: 10, showHidden: true })).not.toMatch(/SECRET/);
    const e = await failure(c.findStream(STREAM_ID));
    expect(e.message).not.toMatch(/SECRET/);
    expect(e.message).toMatch(/auth service/);
  });
});
