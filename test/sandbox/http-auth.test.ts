import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, SANDBOX } from '../../main/service/policy.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';

let sb: Sandbox;
let clock = Date.UTC(2025, 5, 1, 12);
const LIST = `${API_PREFIX.stream}/streams?size=1`;
const basicPair = Buffer.from(`${SANDBOX.clientId}:${SANDBOX.clientSecret}`).toString('base64');

beforeAll(async () => {
  sb = await startSandbox({ now: () => clock, tokenExpiresInS: 600 });
});
afterAll(() => sb.close());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const r = await fetch(sb.url + path, { headers });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

async function token(body: string, headers: Record<string, string> = {}) {
  const r = await fetch(`${sb.url}${API_PREFIX.auth}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const form = `client_id=${SANDBOX.clientId}&client_secret=${SANDBOX.clientSecret}&grant_type=client_credentials`;

describe('credential forms (§2.1)', () => {
  it.each([
    ['A3 Basic API key', LIST, { authorization: `Basic ${SANDBOX.apiKey}` }],
    ['A3 Basic base64(id:secret)', LIST, { authorization: `Basic ${basicPair}` }],
    ['A4 access_token=<api key>', `${LIST}&access_token=${SANDBOX.apiKey}`, {}],
    ['A5 X-Client-* headers', LIST, { 'x-client-id': SANDBOX.clientId, 'x-client-secret': SANDBOX.clientSecret }],
    [
      'A6 client_id/client_secret query',
      `${LIST}&client_id=${SANDBOX.clientId}&client_secret=${SANDBOX.clientSecret}`,
      {},
    ],
  ])('%s is accepted', async (_n, path, headers) => {
    expect((await get(path, headers)).status).toBe(200);
  });

  it('A1/A2: a token from the token endpoint works in the header and the query, and expires', async () => {
    const t = await token(form);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    const access = String(t.body.access_token);
    expect(access.split('.')).toHaveLength(3);
    expect((await get(LIST, { authorization: `Bearer ${access}` })).status).toBe(200);
    expect((await get(`${LIST}&access_token=${access}`)).status).toBe(200);
    clock += 600_000;
    const expired = await get(LIST, { authorization: `Bearer ${access}` });
    expect([expired.status, expired.body.internalErrorName]).toEqual([401, 'GENERAL_AUTHENTICATION_ERROR']);
  });

  it.each([
    ['no credentials', LIST, {}],
    ['wrong API key', LIST, { authorization: 'Basic nope' }],
    ['unknown bearer', LIST, { authorization: 'Bearer abc.def.ghi' }],
    ['unknown scheme', LIST, { authorization: `Digest ${SANDBOX.apiKey}` }],
    ['wrong secret header', LIST, { 'x-client-id': SANDBOX.clientId, 'x-client-secret': 'x' }],
    ['wrong query key', `${LIST}&access_token=nope`, {}],
    // C2: the first form present decides; a later valid form does not rescue it.
    ['bad header + good query', `${LIST}&access_token=${SANDBOX.apiKey}`, { authorization: 'Basic nope' }],
    [
      'bad X-Client + good query',
      `${LIST}&access_token=${SANDBOX.apiKey}`,
      { 'x-client-id': 'a', 'x-client-secret': 'b' },
    ],
  ])('%s → 401 with an ErrorResponse (C3)', async (_n, path, headers) => {
    const r = await get(path, headers);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({
      statusCode: 401,
      internalErrorName: 'GENERAL_AUTHENTICATION_ERROR',
      nestedErrors: [],
    });
  });

  it('a valid header wins over a bad query value', async () => {
    expect((await get(`${LIST}&access_token=nope`, { authorization: `Basic ${SANDBOX.apiKey}` })).status).toBe(200);
  });

  it('every service requires credentials', async () => {
    for (const path of [
      `${API_PREFIX.export}/export/JSON?streams=${crypto.randomUUID()}`,
      `${API_PREFIX.usage}/usage/report`,
      `${API_PREFIX.configuration}/stream-configuration-templates`,
      '/sandbox/admin/stats',
    ]) {
      expect((await get(path)).status, path).toBe(401);
    }
  });
});

describe('token endpoint (§2.2)', () => {
  it('accepts client_secret_basic too', async () => {
    const t = await token('grant_type=client_credentials', { authorization: `Basic ${basicPair}` });
    expect(t.status).toBe(200);
  });

  it.each([
    ['wrong secret', `client_id=${SANDBOX.clientId}&client_secret=x&grant_type=client_credentials`, 'invalid_client'],
    ['wrong grant', `${form.replace('client_credentials', 'password')}`, 'unsupported_grant_type'],
    ['no grant', `client_id=${SANDBOX.clientId}&client_secret=${SANDBOX.clientSecret}`, 'invalid_request'],
  ])('%s → 400 OAuth body', async (_n, body, error) => {
    const t = await token(body);
    expect(t.status).toBe(400);
    expect(t.body.error).toBe(error);
    expect(typeof t.body.error_description).toBe('string');
    expect(t.body).not.toHaveProperty('internalErrorName');
  });
});
