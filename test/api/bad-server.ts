// A tiny real HTTP server on loopback that misbehaves on purpose (proxy pages, empty bodies,
// resets, silence): the error paths the sandbox cannot produce. Real HTTP, no mocking.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bodyBytes: number;
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, hit: Hit, n: number) => void;

export interface BadServer {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

/** Reads the whole request body (kept as text when small) before calling the handler. */
export async function startBadServer(handler: Handler, opts: { readBody?: boolean } = {}): Promise<BadServer> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const hit: Hit = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyBytes: 0, body: '' };
    hits.push(hit);
    const n = hits.length;
    if (opts.readBody === false) return handler(req, res, hit, n);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      hit.bodyBytes += c.length;
      if (hit.bodyBytes < 1 << 20) chunks.push(c);
    });
    req.on('end', () => {
      hit.body = Buffer.concat(chunks).toString('utf8');
      handler(req, res, hit, n);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export const STREAM_ID = '0b8f3c2e-6a41-4d0e-9a57-3f1d2c7e9b10';

export function fakeStream(state = 'READY'): Record<string, unknown> {
  return {
    streamId: STREAM_ID,
    name: 'a.wav',
    groupId: STREAM_ID,
    state,
    stateDescription: null,
    finalizedTimestamp: null,
    extra: { kept: true },
  };
}
