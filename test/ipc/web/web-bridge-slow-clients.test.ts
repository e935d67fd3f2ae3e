// The web bridge lets slow clients go: headers trickled a byte at a time, and bodies that do not
// arrive by their deadline (with or without the token), are closed by the server, while a real
// request made meanwhile is answered as usual. Limits are made short here; each socket is watched
// until it closes, and its bytes keep trickling until then.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB } from '../../../preload/contract.js';
import { bodyDeadlineMs, SLOW_CLIENT_LIMITS } from '../../../main/ipc/web/slow-clients.js';
import { startWebBridge, type WebBridge } from '../../../main/ipc/web/web-bridge.js';
import { openEnv, type Env } from '../helpers.js';
import { rawRequest } from './raw-http.js';

const LIMITS = { headersMs: 400, bodyMs: 400, minBytesPerSecond: 1_000_000, checkEveryMs: 100 };
let env: Env;
let web: WebBridge;

beforeAll(async () => {
  env = await openEnv();
  web = await startWebBridge(env.rt, env.platform, { flushIntervalMs: 20, statsIntervalMs: 50, slowClients: LIMITS });
});
afterAll(async () => {
  await web.close();
  await env.close();
});

interface Trickle {
  /** Resolves when the server closes the socket, with what it answered (if anything). */
  closed: Promise<string>;
}

/** Opens a socket, writes `head` at once, then `rest` one byte every 50 ms until the server closes it. */
function trickle(head: string, rest: string): Trickle {
  const sock: Socket = connect(web.port, '127.0.0.1');
  let answer = '';
  let i = 0;
  let timer: NodeJS.Timeout | undefined;
  sock.on('data', (d: Buffer) => (answer += d.toString('latin1')));
  sock.on('error', () => undefined);
  sock.once('connect', () => {
    sock.write(head);
    timer = setInterval(() => {
      if (i < rest.length) sock.write(rest.charAt(i++));
    }, 50);
  });
  const closed = new Promise<string>((resolve) =>
    sock.once('close', () => {
      clearInterval(timer);
      resolve(answer);
    }),
  );
  return { closed };
}

const host = () => `host: 127.0.0.1:${web.port}\r\n`;
const appInfo = () =>
  rawRequest(web.port, {
    method: 'POST',
    target: `${WEB.apiPrefix}app:info`,
    headers: { [WEB.tokenHeader]: web.token, 'content-type': 'application/json' },
    body: '{}',
  });

describe('slow clients', () => {
  it('closes headers that trickle, and bodies that do not come in time (with and without the token)', async () => {
    const started = Date.now();
    const headers = trickle('GET / HTTP/1.1\r\n', `${host()}x-slow: ${'a'.repeat(400)}\r\n\r\n`);
    const body = `{"padding":"${'b'.repeat(99_980)}"}`;
    const withToken = trickle(
      `POST ${WEB.apiPrefix}app:info HTTP/1.1\r\n${host()}${WEB.tokenHeader}: ${web.token}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
      body,
    );
    const withoutToken = trickle(
      `POST ${WEB.apiPrefix}app:info HTTP/1.1\r\n${host()}content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
      body,
    );
    // Meanwhile a real request is answered as always.
    const real = await appInfo();
    expect(real.status).toBe(200);
    expect(JSON.parse(real.body)).toMatchObject({ ok: true });

    const [h, t, n] = await Promise.all([headers.closed, withToken.closed, withoutToken.closed]);
    // Node answers a request whose headers ran out of time with 408 before closing.
    expect(h).toMatch(/^HTTP\/1\.1 408 /);
    // The request with the token never reached its handler: no answer, the socket closed.
    expect(t).toBe('');
    // Refused at once (401), and then let go rather than held open by its unread body.
    expect(n).toMatch(/^HTTP\/1\.1 401 /);
    // Closed by the server well before the trickles could have ended (400 × 50 ms, 100,000 × 50 ms).
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a body sent at its pace is kept: its deadline grows with its declared size', () => {
    expect(bodyDeadlineMs({ headers: {} }, SLOW_CLIENT_LIMITS)).toBe(SLOW_CLIENT_LIMITS.bodyMs);
    // A 10 GB upload gets its time at the slowest rate allowed: at least 256 KB/s over a remote link.
    const tenGb = 10 * 1024 ** 3;
    expect(bodyDeadlineMs({ headers: { 'content-length': String(tenGb) } }, SLOW_CLIENT_LIMITS)).toBe(
      SLOW_CLIENT_LIMITS.bodyMs + Math.ceil((tenGb / SLOW_CLIENT_LIMITS.minBytesPerSecond) * 1000),
    );
  });

  it('a real request with a large body sent at once is answered, past the short body time', async () => {
    // 3 MB of JSON (under the 4 MB body limit): its deadline is 400 ms + 3 s at 1 MB/s.
    const big = JSON.stringify({ padding: 'c'.repeat(3_000_000) });
    const r = await rawRequest(web.port, {
      method: 'POST',
      target: `${WEB.apiPrefix}app:info`,
      headers: { [WEB.tokenHeader]: web.token, 'content-type': 'application/json' },
      body: big,
    });
    expect(r.status).toBe(200);
  });
});
