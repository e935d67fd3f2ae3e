// Client id + secret → bearer token (§2.2, §15.5) against a loopback token endpoint whose answers
// the test controls: sharing, proactive refresh, one refresh on 401, bad credentials.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, ServiceError, type SluiceClient } from '../../main/api/index.js';
import { API_PREFIX, TOKEN } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { fakeStream, json, startBadServer, STREAM_ID, type BadServer, type Hit } from './bad-server.js';

const TOKEN_URL = `${API_PREFIX.auth}/token`;
let server: BadServer | undefined;
let client: SluiceClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

interface Behaviour {
  tokenStatus?: number;
  /** Service answers 401 to these tokens. */
  refuse?: (token: string) => boolean;
  expiresIn?: number;
}

async function setup(b: Behaviour = {}): Promise<{ clock: { t: number }; tokens: Hit[]; reads: Hit[] }> {
  let issued = 0;
  const tokens: Hit[] = [];
  const reads: Hit[] = [];
  server = await startBadServer((req, res, hit) => {
    if (hit.url === TOKEN_URL) {
      tokens.push(hit);
      if (b.tokenStatus)
        return json(res, b.tokenStatus, {
          error: 'invalid_client',
          error_description: 'Invalid client or Invalid client credentials',
        });
      // Answer a little later so concurrent callers really overlap.
      return void setTimeout(
        () => json(res, 200, { access_token: `tok-${++issued}`, expires_in: b.expiresIn ?? 600, token_type: 'Bearer' }),
        30,
      );
    }
    reads.push(hit);
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!token.startsWith('tok-') || b.refuse?.(token)) {
      return json(res, 401, {
        statusCode: 401,
        title: 'Authentication required',
        message: 'Exception on client authorization',
        internalErrorName: 'GENERAL_AUTHENTICATION_ERROR',
        nestedErrors: [],
      });
    }
    json(res, 200, fakeStream());
  });
  const clock = { t: 1_000_000 };
  client = createClient({
    baseUrl: server.url,
    credentials: { kind: 'clientCredentials', clientId: 'my id', clientSecret: 's+cr&t' },
    now: () => clock.t,
    sleep: async () => undefined,
  });
  return { clock, tokens, reads };
}

describe('client credentials', () => {
  it('sends the form, shares one in-flight fetch among concurrent requests, caches the token', async () => {
    const { tokens, reads } = await setup();
    await Promise.all(Array.from({ length: 8 }, () => client!.findStream(STREAM_ID)));
    expect(tokens).toHaveLength(1);
    expect(tokens[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokens[0]?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'my id',
      client_secret: 's+cr&t',
    });
    expect(reads.every((r) => r.headers.authorization === 'Bearer tok-1')).toBe(true);
    await client!.findStream(STREAM_ID);
    expect(client!.tokenFetches).toBe(1);
  });

  it('refreshes at refreshAtFraction of expires_in, not before', async () => {
    const { clock, reads } = await setup({ expiresIn: 100 });
    await client!.findStream(STREAM_ID);
    clock.t += 100_000 * TOKEN.refreshAtFraction - 1;
    await client!.findStream(STREAM_ID);
    expect(client!.tokenFetches).toBe(1);
    clock.t += 2;
    await client!.findStream(STREAM_ID);
    expect(client!.tokenFetches).toBe(2);
    expect(reads.at(-1)?.headers.authorization).toBe('Bearer tok-2');
  });

  it('a 401 refreshes once and replays; concurrent 401s share the refresh', async () => {
    const { reads } = await setup({ refuse: (t) => t === 'tok-1' });
    await Promise.all([client!.findStream(STREAM_ID), client!.findStream(STREAM_ID), client!.findStream(STREAM_ID)]);
    expect(client!.tokenFetches).toBe(2);
    expect(reads.filter((r) => r.headers.authorization === 'Bearer tok-2').length).toBe(3);
  });

  it('an upload refused with 401 is resent once with a fresh token, from the first byte', async () => {
    const { reads } = await setup({ refuse: (t) => t === 'tok-1' });
    const dir = await mkdtemp(join(tmpdir(), 'sluice-tok-'));
    const filePath = join(dir, 'a.wav');
    await writeFile(filePath, Buffer.alloc(300_000, 3));
    const progress: number[] = [];
    await client!.upload({
      templateId: TEMPLATE_IDS.transcription,
      streamId: STREAM_ID,
      filePath,
      onProgress: (s) => progress.push(s),
    });
    expect(reads.map((r) => [r.headers.authorization, r.bodyBytes])).toEqual([
      ['Bearer tok-1', 300_000],
      ['Bearer tok-2', 300_000],
    ]);
    expect(progress.filter((p) => p === 0)).toHaveLength(2);
  });

  it('a second 401 is a credentials error', async () => {
    await setup({ refuse: () => true });
    const e = (await client!.findStream(STREAM_ID).catch((x: unknown) => x)) as ServiceError;
    expect(e).toBeInstanceOf(ServiceError);
    expect(e).toMatchObject({
      statusCode: 401,
      errorClass: 'credentials',
      internalErrorName: 'GENERAL_AUTHENTICATION_ERROR',
    });
    expect(client!.tokenFetches).toBe(2);
  });

  it('bad client credentials at the token endpoint: credentials class, no replay, no secret in the message', async () => {
    const { tokens, reads } = await setup({ tokenStatus: 400 });
    const e = (await client!.listStreams().catch((x: unknown) => x)) as ServiceError;
    expect(e).toMatchObject({ kind: 'http', statusCode: 400, errorClass: 'credentials', title: 'invalid_client' });
    expect(e.message).toBe('Invalid client or Invalid client credentials (invalid_client)');
    expect(JSON.stringify(e)).not.toContain('s+cr&t');
    expect(tokens).toHaveLength(1);
    expect(reads).toHaveLength(0);
  });
});
