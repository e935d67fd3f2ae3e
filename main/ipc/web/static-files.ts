// The built renderer over the web bridge: files from dist/renderer, index.html for any other path
// (the renderer routes by itself), and a plain page saying how to build it when it is missing.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { isApiPath, normalisedPath, STATIC_ROUTE } from './access-guard.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

const MISSING = `<!doctype html><meta charset="utf-8"><title>Sluice</title>
<p>The Sluice interface is not built yet. Run <code>npm run build</code> in the project folder, then reload.</p>`;

async function fileAt(root: string, urlPath: string): Promise<string | undefined> {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return undefined;
  }
  const target = path.resolve(root, `.${path.posix.normalize(`/${rel}`)}`);
  // Normalising under "/" already strips "..", this is the belt to those braces.
  if (target !== root && !target.startsWith(root + path.sep)) return undefined;
  const st = await stat(target).catch(() => undefined);
  return st?.isFile() ? target : undefined;
}

export function registerStatic(app: FastifyInstance, rendererDir: string | undefined): void {
  const root = rendererDir ? path.resolve(rendererDir) : undefined;
  app.get(STATIC_ROUTE, async (req, reply) => {
    const asked = normalisedPath(req.url);
    if (asked === undefined || isApiPath(asked)) return reply.code(404).send({ error: 'No such endpoint.' });
    const file = root ? ((await fileAt(root, req.url)) ?? (await fileAt(root, '/index.html'))) : undefined;
    if (!file) return reply.type('text/html; charset=utf-8').send(MISSING);
    const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    // index.html names hashed assets: it must never be cached, the assets may be.
    void reply.header('Cache-Control', file.endsWith('index.html') ? 'no-cache' : 'public, max-age=3600');
    return reply.type(type).send(createReadStream(file));
  });
}
