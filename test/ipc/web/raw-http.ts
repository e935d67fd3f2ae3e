// HTTP/1.1 over a bare socket, for request targets that fetch and undici would normalise first
// (percent-encoding, dot segments, duplicate slashes, absolute-form) and for bodies cut short.
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawRequest {
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: string;
}

function parse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: end < 0 ? '' : text.slice(end + 4) };
}

/** One request on its own connection (closed after the answer, or after `ms` if none comes). */
export function rawRequest(port: number, r: RawRequest, ms = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body = r.body ?? '';
    const headers: Record<string, string> = {
      host: `127.0.0.1:${port}`,
      connection: 'close',
      ...(r.method === 'GET' || r.method === 'HEAD' ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
      ...r.headers,
    };
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => sock.destroy(), ms);
    sock.on('data', (c: Buffer) => {
      chunks.push(c);
      // An event stream never ends by itself: its headers are enough to judge it.
      if (/^content-type: text\/event-stream/im.test(Buffer.concat(chunks).toString('latin1'))) sock.destroy();
    });
    sock.on('error', reject);
    sock.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks).toString('utf8')));
    });
    sock.write(`${r.method} ${r.target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

/** A request whose body the caller sends piece by piece, and may cut off before its announced end. */
export interface OpenRequest {
  send(chunk: Buffer | string): Promise<void>;
  /** Drops the connection (a closed tab, a lost network). */
  cut(): Promise<void>;
}

export async function openRequest(
  port: number,
  target: string,
  headers: Record<string, string>,
  announced: number,
): Promise<OpenRequest> {
  const sock: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => sock.once('connect', resolve).once('error', reject));
  const head = { host: `127.0.0.1:${port}`, 'content-length': String(announced), ...headers };
  const lines = Object.entries(head).map(([k, v]) => `${k}: ${v}`);
  sock.write(`POST ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  return {
    send: (chunk) => new Promise((resolve, reject) => sock.write(chunk, (e) => (e ? reject(e) : resolve()))),
    cut: () =>
      new Promise((resolve) => {
        sock.once('close', () => resolve());
        sock.destroy();
      }),
  };
}
