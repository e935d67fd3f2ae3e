// The contract over loopback HTTP, for `sluice serve` (a browser instead of the Electron window):
// `POST /api/<channel>` with JSON params answers a Result; events stream as Server-Sent Events.
// Note: SSE rather than WebSocket because events only flow main → renderer (requests already go
// over POST), EventSource reconnects by itself, and it needs no extra dependency or upgrade path.
// A random token, printed in the start-up URL's #fragment (never sent to servers or logs), is
// required on every request but the static files', from the bridge's own origin only
// (access-guard.ts). Bound to 127.0.0.1 unless allowed.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { WEB, type UploadResult } from '../../../preload/contract.js';
import type { Services } from '../../runtime/services.js';
import { SECURITY_HEADERS } from '../page-security.js';
import { createBridge, dispatch, type Bridge } from '../handlers.js';
import type { PlatformPort } from '../platform.js';
import { guardRequest, MEDIA_ROUTE, mediaSignature } from './access-guard.js';
import { MEDIA_PREFIX, mediaResponse } from '../media-response.js';
import { registerStatic } from './static-files.js';
import { receiveUpload } from './receive-upload.js';
import { sendResult } from './result-download.js';
import { headerTimeouts, limitBodyTime, SLOW_CLIENT_LIMITS, type SlowClientLimits } from './slow-clients.js';

export interface WebBridgeOptions {
  port?: number;
  host?: string;
  /** Required to bind anything but loopback: the token is then the only thing guarding the queue. */
  allowRemote?: boolean;
  /** Built renderer (dist/renderer); a placeholder page is served when it is missing. */
  rendererDir?: string;
  token?: string;
  /** Test hooks: event timing. */
  flushIntervalMs?: number;
  statsIntervalMs?: number;
  /** When a slow client is let go (default SLOW_CLIENT_LIMITS); tests make them short. */
  slowClients?: SlowClientLimits;
}

export interface WebBridge {
  url: string;
  /** The URL to open: the token travels in the fragment. */
  openUrl: string;
  token: string;
  port: number;
  host: string;
  bridge: Bridge;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export async function startWebBridge(
  rt: Services,
  platform: PlatformPort,
  o: WebBridgeOptions = {},
): Promise<WebBridge> {
  const host = o.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && !o.allowRemote) {
    throw new Error(`Refusing to listen on ${host}: only 127.0.0.1 unless --allow-remote is given.`);
  }
  const token = o.token ?? randomBytes(24).toString('base64url');
  // The player's URL for a job's source: relative to the page, signed for that job only.
  const withMedia: PlatformPort = {
    ...platform,
    mediaUrl: (jobId) => `.${MEDIA_PREFIX}${encodeURIComponent(jobId)}?sig=${mediaSignature(token, jobId)}`,
  };
  const bridge = createBridge(rt, withMedia, {
    ...(o.flushIntervalMs !== undefined ? { flushIntervalMs: o.flushIntervalMs } : {}),
    ...(o.statsIntervalMs !== undefined ? { statsIntervalMs: o.statsIntervalMs } : {}),
  });
  const slow = o.slowClients ?? SLOW_CLIENT_LIMITS;
  const app: FastifyInstance = Fastify({
    logger: false,
    // Headers that trickle are Node's to time out; bodies get their deadline in onRequest below.
    http: headerTimeouts(slow),
    bodyLimit: 4 * 1024 * 1024,
    // Closing ends every connection, busy or idle: a tab waiting on a slow answer must not hold
    // `sluice serve` open after Ctrl+C or SIGTERM.
    forceCloseConnections: true,
    // fastify's defaults, pinned: one spelling per route, the one the access guard is tested on.
    routerOptions: {
      caseSensitive: true,
      ignoreDuplicateSlashes: false,
      ignoreTrailingSlash: false,
    },
  });
  const streams = new Set<ServerResponse>();

  app.addHook('onRequest', async (req, reply) => {
    limitBodyTime(req.raw, slow);
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) void reply.header(k, v);
    // DNS rebinding: a loopback server answers only to loopback host names.
    const hostHeader = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (!o.allowRemote && !LOOPBACK.has(hostHeader)) return reply.code(421).send('Misdirected request.');
    return guardRequest(req, reply, token);
  });

  app.get(WEB.eventsPath, (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    res.write(`event: queue:snapshot-changed\ndata: ${JSON.stringify(bridge.model.snapshot())}\n\n`);
    const sub = bridge.events.subscribe(
      (e) => void res.write(`event: ${e.name}\ndata: ${JSON.stringify(e.payload)}\n\n`),
      {
        ready: true,
      },
    );
    const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    beat.unref();
    streams.add(res);
    req.raw.once('close', () => {
      clearInterval(beat);
      sub.close();
      streams.delete(res);
    });
  });

  await app.register(async (scope) => {
    // Uploads stream straight to disk: no body parsing in this scope.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    // find-my-way reads ':' as a parameter; '::' is a literal colon.
    scope.post(WEB.uploadPath.replaceAll(':', '::'), async (req: FastifyRequest) => {
      const r = await receiveUpload(rt, bridge.handlers, req);
      return r satisfies UploadResult;
    });
  });

  app.get<{ Params: { jobId: string } }>(MEDIA_ROUTE, async (req, reply) => {
    const r = await mediaResponse(rt.queue, req.params.jobId, req.method, req.headers.range);
    // Straight to the socket: HEAD must announce the file's length, and a player that seeks
    // away closes the connection mid-body, which only has to stop the read.
    reply.hijack();
    const res = reply.raw;
    res.writeHead(r.status, { ...SECURITY_HEADERS, 'Cache-Control': 'no-store', ...r.headers });
    if (!r.body) return void res.end(r.status === 404 ? 'Not found.' : undefined);
    pipeline(r.body, res).catch(() => undefined);
  });
  // find-my-way reads ':' as a parameter; '::' is a literal colon.
  app.get(WEB.downloadPath.replaceAll(':', '::'), (req, reply) => sendResult(rt, req, reply));

  app.post<{ Params: { channel: string } }>(`${WEB.apiPrefix}:channel`, async (req) =>
    dispatch(bridge.handlers, req.params.channel, req.body),
  );

  registerStatic(app, o.rendererDir);

  try {
    await app.listen({ port: o.port ?? 0, host });
  } catch (e) {
    bridge.close();
    throw e;
  }
  const { port } = app.server.address() as AddressInfo;
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}/`;
  return {
    url,
    openUrl: `${url}#token=${token}`,
    token,
    port,
    host,
    bridge,
    close: async () => {
      bridge.close();
      for (const res of streams) res.end();
      await app.close();
    },
  };
}
