// A local file server for media links (node:http / node:https on loopback): serves the files of a
// folder by name, answers 404 for anything else, and never answers `/silent/…` (a server that
// hangs). https uses a self-signed certificate made for the test with openssl.
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface MediaServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** Paths requested, in order (query strings included). */
  readonly requests: string[];
  close(): Promise<void>;
}

export interface Certificate {
  cert: string;
  key: string;
  /** The certificate's file, for NODE_EXTRA_CA_CERTS in a child process. */
  certPath: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost, written into `dir`. */
export async function makeCertificate(dir: string): Promise<Certificate> {
  const keyPath = join(dir, 'link-key.pem');
  const certPath = join(dir, 'link-cert.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    keyPath,
    '-out',
    certPath,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ]);
  return { cert: await readFile(certPath, 'utf8'), key: await readFile(keyPath, 'utf8'), certPath };
}

export async function startMediaServer(dir: string, tls?: Certificate): Promise<MediaServer> {
  const requests: string[] = [];
  const held: ServerResponse[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    requests.push(url);
    const pathname = decodeURIComponent(new URL(url, 'http://x').pathname);
    if (pathname.startsWith('/silent/')) {
      held.push(res);
      return;
    }
    const name = pathname.replace(/^\/+/, '');
    const file = join(dir, name);
    if (name === '' || name.includes('/') || name.startsWith('.')) {
      res.writeHead(404).end('not found');
      return;
    }
    void stat(file).then(
      (st) => {
        res.writeHead(200, { 'content-length': st.size, 'content-type': 'application/octet-stream' });
        createReadStream(file).pipe(res);
      },
      () => res.writeHead(404, 'Not Found').end('not found'),
    );
  };
  const server: Server = tls ? createHttps({ cert: tls.cert, key: tls.key }, handler) : createHttp(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
