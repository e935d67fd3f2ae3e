// The web bridge over real HTTP on loopback: the token, the binding, Result answers, events over
// SSE, security headers, and a file "dropped" into the browser (uploaded) that gets processed.
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEB } from '../../../preload/contract.js';
import { startWebBridge, type WebBridge } from '../../../main/ipc/web/web-bridge.js';
import { CONTENT_SECURITY_POLICY } from '../../../main/ipc/page-security.js';
import { makeToneWav } from '../../helpers/media.js';
import { openEnv, until, type Env } from '../helpers.js';

let env: Env;
let web: WebBridge;

beforeEach(async () => {
  env = await openEnv();
  web = await startWebBridge(env.rt, env.platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
});
afterEach(async () => {
  await web.close();
  await env.close();
});

const call = (channel: string, body: unknown, token: string | null = web.token) =>
  fetch(`${web.url}api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { [WEB.tokenHeader]: token } : {}) },
    body: JSON.stringify(body),
  });

/** Reads SSE events until `stop` says enough. */
async function readEvents(stop: (names: string[]) => boolean, ms = 15_000): Promise<string[]> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), ms);
  const res = await fetch(`${web.url}${WEB.eventsPath.slice(1)}?token=${web.token}`, { signal: ctrl.signal });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const names: string[] = [];
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      names.splice(0, names.length, ...[...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1] ?? ''));
      if (stop(names)) break;
    }
  } finally {
    clearTimeout(timer);
    ctrl.abort();
  }
  return names;
}

describe('web bridge', () => {
  it('listens on 127.0.0.1 only, and refuses another host without allowRemote', async () => {
    expect(web.host).toBe('127.0.0.1');
    expect(web.openUrl).toBe(`http://127.0.0.1:${web.port}/#token=${web.token}`);
    await expect(startWebBridge(env.rt, env.platform, { host: '0.0.0.0' })).rejects.toThrow(/allow-remote/);
  });

  it('refuses requests without the token (401) and answers Results with it', async () => {
    expect((await call('app:info', {}, null)).status).toBe(401);
    expect((await call('app:info', {}, 'wrong-token')).status).toBe(401);
    const events = await fetch(`${web.url}${WEB.eventsPath.slice(1)}`);
    expect(events.status).toBe(401);
    const ok = await call('app:info', {});
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, value: { platform: 'web', simulated: true } });
    expect(await (await call('queue:retry', { id: 5 })).json()).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMS' },
    });
    expect(await (await call('no:such', {})).json()).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: web.port,
          path: '/api/app:info',
          method: 'POST',
          headers: { host: 'evil.example:80' },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(421);
  });

  it('sets the CSP and the other security headers on pages', async () => {
    const res = await fetch(web.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect((await fetch(`${web.url}..%2f..%2fetc%2fpasswd`)).headers.get('content-type')).toContain('text/html');
  });

  it('processes an uploaded (dropped) file into the inbox and streams the events', async () => {
    const wav = await makeToneWav(env.dir, 'dropped take.wav', 1);
    const seen = readEvents((n) => n.some((x) => x === 'job:updated') && n.includes('queue:stats-changed'));
    const form = new FormData();
    form.append('templateId', '668115d123bca7e3509723d4');
    form.append('file', new Blob([await readFile(wav)]), 'dropped take.wav');
    const res = await fetch(`${web.url}${WEB.uploadPath.slice(1)}`, {
      method: 'POST',
      headers: { [WEB.tokenHeader]: web.token },
      body: form,
    });
    const body = (await res.json()) as { ok: boolean; value: Array<{ jobId: string; path: string }> };
    expect(body.ok).toBe(true);
    const [added] = body.value;
    expect(added?.path.startsWith(path.join(env.stateDir, 'inbox'))).toBe(true);
    expect(path.basename(added?.path ?? '')).toBe('dropped take.wav');
    const names = await seen;
    expect(names[0]).toBe('queue:snapshot-changed');
    const job = await until(() => {
      const j = env.rt.queue.job(added?.jobId ?? '');
      return j?.state === 'completed' && j;
    });
    expect(job.results[0]?.path).toBe(path.join(path.dirname(added?.path ?? ''), 'dropped take.json'));
    const unauth = await fetch(`${web.url}${WEB.uploadPath.slice(1)}?name=x.wav`, { method: 'POST', body: 'abc' });
    expect(unauth.status).toBe(401);
  });

  it('accepts a raw upload with ?name=', async () => {
    const wav = await makeToneWav(env.dir, 'raw.wav', 1);
    const res = await fetch(`${web.url}${WEB.uploadPath.slice(1)}?name=${encodeURIComponent('../../raw.wav')}`, {
      method: 'POST',
      headers: { [WEB.tokenHeader]: web.token, 'content-type': 'application/octet-stream' },
      body: await readFile(wav),
    });
    const body = (await res.json()) as { ok: boolean; value: Array<{ outcome: string; path: string }> };
    expect(body).toMatchObject({ ok: true, value: [{ outcome: 'added' }] });
    expect(body.value[0]?.path.startsWith(path.join(env.stateDir, 'inbox'))).toBe(true);
  });
});
