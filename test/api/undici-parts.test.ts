// The client loads only the parts of undici it uses (main/api/undici-parts.ts): a real request
// through them to a server on loopback, with a query, a body and a status the service would send,
// and then the list of undici's modules Node loaded. This file runs in a process of its own
// (vitest's forks pool), so the list is this test's alone.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Agent, request } from '../../main/api/undici-parts.js';

let server: Server;
let origin: string;
const seen: Array<{ method?: string; url?: string; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, body });
      res.writeHead(req.url?.startsWith('/missing') ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

it('requests through the Agent keep the path, query, method and body, and read the answer', async () => {
  const agent = new Agent({ connections: 2 });
  try {
    const ok = await request(`${origin}/a%20b/c?x=1&y=%C3%A9`, { method: 'POST', body: 'hello', dispatcher: agent });
    expect(ok.statusCode).toBe(200);
    expect(await ok.body.json()).toEqual({ ok: true });
    const missing = await request(`${origin}/missing`, { method: 'GET', dispatcher: agent });
    expect(missing.statusCode).toBe(404);
    await missing.body.dump();
  } finally {
    await agent.close();
  }
  expect(seen).toEqual([
    { method: 'POST', url: '/a%20b/c?x=1&y=%C3%A9', body: 'hello' },
    { method: 'GET', url: '/missing', body: '' },
  ]);
});

it('loads undici without its package root: no fetch, WebSocket, EventSource, cache or mocks', () => {
  const loaded = Object.keys(createRequire(import.meta.url).cache)
    .filter((f) => f.includes('/node_modules/undici/'))
    .map((f) => f.replace(/.*\/node_modules\/undici\//, ''));
  expect(loaded).toContain('lib/dispatcher/agent.js');
  expect(loaded).toContain('lib/api/api-request.js');
  expect(loaded).not.toContain('index.js');
  expect(loaded.filter((f) => /^lib\/(web|mock|cache|interceptor)\//.test(f))).toEqual([]);
});
