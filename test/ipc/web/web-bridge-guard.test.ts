// The access token guards every route but the static interface, whatever spelling of the request
// target reaches the router, and a request from another origin is refused even with the token.
// Raw sockets, so that each target arrives exactly as written.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, WEB } from '../../../preload/contract.js';
import { startWebBridge, type WebBridge } from '../../../main/ipc/web/web-bridge.js';
import { openEnv, type Env } from '../helpers.js';
import { rawRequest, type RawRequest, type RawResponse } from './raw-http.js';

let env: Env;
let web: WebBridge;
const ran: string[] = [];

beforeAll(async () => {
  env = await openEnv();
  web = await startWebBridge(env.rt, env.platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
  // Every handler that runs is recorded: no probe may reach one.
  const handlers = web.bridge.handlers as unknown as Record<string, (p: unknown) => Promise<unknown>>;
  for (const c of CHANNELS) {
    const real = handlers[c];
    if (!real) throw new Error(`no handler for ${c}`);
    handlers[c] = (p) => {
      ran.push(c);
      return real(p);
    };
  }
});
afterAll(async () => {
  await web.close();
  await env.close();
});

const hex = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * Spellings of `target` (a path under /api/) that some parser could read as that path. Every
 * character is percent-encoded in turn; the /api/ prefix, which decides the guard, also in lower
 * case hex, double and triple encoded.
 */
function spellings(target: string, port: number): string[] {
  const [p = '', query] = target.split('?');
  const rest = p.slice(WEB.apiPrefix.length); // the channel part
  const out = new Set<string>();
  for (let i = 0; i < p.length; i++) {
    const c = p.charAt(i);
    const before = p.slice(0, i);
    const after = p.slice(i + 1);
    out.add(before + hex(c).toUpperCase() + after);
    if (i >= WEB.apiPrefix.length) continue;
    out.add(before + hex(c).toLowerCase() + after);
    out.add(`${before}%25${hex(c).slice(1).toUpperCase()}${after}`);
    out.add(`${before}%2525${hex(c).slice(1)}${after}`);
  }
  out.add(p.toUpperCase());
  out.add(`/API/${rest}`);
  out.add(`/Api/${rest}`);
  out.add(`/api/${rest.toUpperCase()}`);
  out.add(`/%41PI/${rest}`);
  for (const s of ['//api/', '/api//', '//api//', '///api/', '/api///']) out.add(s + rest);
  for (const s of [
    '/./api/',
    '/x/../api/',
    '/api/./',
    '/api/x/../',
    '/%2e/api/',
    '/x/%2e%2e/api/',
    '/api/%2E/',
    '/.%2e/api/',
  ])
    out.add(s + rest);
  for (const s of ['/api%2f', '/api%2F', '%2fapi%2f', '/x%2f..%2fapi/', '/x/..%2fapi/', '/api%5c', '/api\\', '\\api\\'])
    out.add(s + rest);
  for (const origin of [
    `http://127.0.0.1:${port}`,
    `HTTP://127.0.0.1:${port}`,
    `http://localhost:${port}`,
    `http://[::1]:${port}`,
  ])
    out.add(origin + p);
  out.add(`http://127.0.0.1:${port}/%61pi/${rest}`);
  for (const tail of ['/', '?', '#x', ';x', '%00', '%20', '%09', '.', '/.']) out.add(p + tail);
  out.add(`${p}%3Fx`);
  return [...out].map((s) => (query === undefined || s.includes('?') ? s : `${s}?${query}`));
}

async function all<T, R>(items: T[], f: (t: T) => Promise<R>, width = 12): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i] as T);
      }
    }),
  );
  return out;
}

/** What counts as refused: a 4xx, no Result that succeeded, no event stream. */
function accepted(r: RawResponse): boolean {
  return (
    r.status < 400 ||
    r.status >= 500 ||
    r.body.includes('"ok":true') ||
    (r.headers['content-type'] ?? '').includes('text/event-stream')
  );
}

const JSON_POST = { 'content-type': 'application/json' };
// What a page on another loopback port can send without a preflight (fetch mode no-cors).
const NO_CORS = (port: number) => ({
  'content-type': 'text/plain;charset=UTF-8',
  origin: `http://127.0.0.1:${port + 1}`,
  'sec-fetch-site': 'same-site',
  'sec-fetch-mode': 'no-cors',
});

describe('web bridge access guard', () => {
  it('answers the canonical request with the token (the probes below can see success)', async () => {
    const r = await rawRequest(web.port, {
      method: 'POST',
      target: '/api/settings:get',
      headers: { ...JSON_POST, [WEB.tokenHeader]: web.token },
      body: '{}',
    });
    expect(r.status).toBe(200);
    expect(r.body).toContain('"ok":true');
    expect(ran).toEqual(['settings:get']);
    ran.length = 0;
  });

  it('refuses every spelling of every request channel without the token', { timeout: 120_000 }, async () => {
    const probes: Array<RawRequest & { label: string }> = [];
    for (const channel of CHANNELS) {
      const targets = spellings(`${WEB.apiPrefix}${channel}`, web.port);
      for (const [i, target] of targets.entries()) {
        probes.push({ label: `POST json ${target}`, method: 'POST', target, headers: JSON_POST, body: '{}' });
        // Cross-site and GET forms: a third of the spellings each, a different third per channel.
        const third = (i + CHANNELS.indexOf(channel)) % 3;
        if (third === 0)
          probes.push({
            label: `POST no-cors ${target}`,
            method: 'POST',
            target,
            headers: NO_CORS(web.port),
            body: '{}',
          });
        if (third === 1) probes.push({ label: `GET ${target}`, method: 'GET', target });
      }
    }
    const answers = await all(probes, (p) => rawRequest(web.port, p));
    const let_through = probes.filter((_, i) => accepted(answers[i] as RawResponse)).map((p) => p.label);
    expect(let_through).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('refuses every spelling of the event stream and of the upload without the token', async () => {
    const probes: Array<RawRequest & { label: string }> = [];
    for (const target of spellings(WEB.eventsPath, web.port)) {
      probes.push({ label: `GET ${target}`, method: 'GET', target });
      probes.push({ label: `GET wrong token ${target}`, method: 'GET', target: `${target}?token=x${web.token}` });
    }
    for (const target of spellings(`${WEB.uploadPath}?name=probe.wav`, web.port)) {
      for (const headers of [{ 'content-type': 'application/octet-stream' }, NO_CORS(web.port)])
        probes.push({ label: `POST ${target}`, method: 'POST', target, headers, body: 'RIFF....WAVE' });
      const boundary = 'probe';
      probes.push({
        label: `POST multipart ${target}`,
        method: 'POST',
        target,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="probe.wav"\r\n\r\nRIFF\r\n--${boundary}--\r\n`,
      });
    }
    const answers = await all(probes, (p) => rawRequest(web.port, p));
    const let_through = probes.filter((_, i) => accepted(answers[i] as RawResponse)).map((p) => p.label);
    expect(let_through).toEqual([]);
    expect(ran).toEqual([]);
    expect(await readdir(path.join(env.stateDir, 'inbox')).catch(() => [])).toEqual([]);
  });

  it('refuses every spelling of the result download without the token, and from another origin', async () => {
    const probes: Array<RawRequest & { label: string }> = [];
    for (const target of spellings(`${WEB.downloadPath}?jobId=x&format=json`, web.port)) {
      probes.push({ label: `GET ${target}`, method: 'GET', target });
      probes.push({ label: `GET wrong token ${target}`, method: 'GET', target, headers: { [WEB.tokenHeader]: 'x' } });
      probes.push({ label: `GET query token ${target}`, method: 'GET', target: `${target}&token=${web.token}` });
    }
    const answers = await all(probes, (p) => rawRequest(web.port, p));
    const let_through = probes.filter((_, i) => accepted(answers[i] as RawResponse)).map((p) => p.label);
    expect(let_through).toEqual([]);
    const cross = await rawRequest(web.port, {
      method: 'GET',
      target: `${WEB.downloadPath}?jobId=x&format=json`,
      headers: { [WEB.tokenHeader]: web.token, 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.status).toBe(403);
    // With the token the route is reached (no such job here), so the refusals above are the guard's.
    const own = await rawRequest(web.port, {
      method: 'GET',
      target: `${WEB.downloadPath}?jobId=x&format=json`,
      headers: { [WEB.tokenHeader]: web.token },
    });
    expect(own.status).toBe(404);
  });

  it('refuses a request from another origin even with the token', async () => {
    const withToken = { ...JSON_POST, [WEB.tokenHeader]: web.token };
    const cases: Array<Record<string, string>> = [
      { origin: `http://127.0.0.1:${web.port + 1}` },
      { origin: 'null' },
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: `http://127.0.0.1:${web.port}`, 'sec-fetch-site': 'same-site' },
    ];
    for (const extra of cases) {
      const r = await rawRequest(web.port, {
        method: 'POST',
        target: '/api/queue:pause',
        headers: { ...withToken, ...extra },
        body: '{}',
      });
      expect({ extra, status: r.status }).toEqual({ extra, status: 403 });
    }
    const events = await rawRequest(web.port, {
      method: 'GET',
      target: `${WEB.eventsPath}?token=${web.token}`,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(events.status).toBe(403);
    expect(ran).toEqual([]);
    // The page itself: same origin, same-origin fetch metadata.
    const own = await rawRequest(web.port, {
      method: 'POST',
      target: '/api/app:info',
      headers: { ...withToken, origin: `http://127.0.0.1:${web.port}`, 'sec-fetch-site': 'same-origin' },
      body: '{}',
    });
    expect(own.status).toBe(200);
    expect(ran).toEqual(['app:info']);
    ran.length = 0;
  });

  it('keeps the static interface public, and only it', async () => {
    const page = await rawRequest(web.port, { method: 'GET', target: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const head = await rawRequest(web.port, { method: 'HEAD', target: '/queue' });
    expect(head.status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      const r = await rawRequest(web.port, { method, target: '/', headers: JSON_POST, body: '{}' });
      expect({ method, refused: r.status >= 400 && r.status < 500 }).toEqual({ method, refused: true });
    }
  });
});
