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

/** Sends the head and part of a body announced longer, then cuts the connection. */
export function cutUpload(
  port: number,
  target: string,
  headers: Record<string, string>,
  parts: {
    sent: Buffer;
    announced: number;
  },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const sock: Socket = connect(port, '127.0.0.1');
    sock.on('error', reject);
    sock.on('close', () => resolve());
    const head = { host: `127.0.0.1:${port}`, 'content-length': String(parts.announced), ...headers };
    sock.write(
      `POST ${target} HTTP/1.1\r\n${Object.entries(head)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n')}\r\n\r\n`,
    );
    sock.write(parts.sent, () => setTimeout(() => sock.destroy(), 150));
  });
}
