// Fetches the media behind a link body (§4.4 b, C8) into a file, as the service's gateway does
// before transcoding: http and https, redirects followed, streamed to disk (memory stays flat) and
// hashed on the way (the hash seeds the simulated results, as an upload's does).
//
// Note: the contract publishes nothing about links that cannot be fetched. The sandbox's CHOICE:
// the stream is created and accepted (the 200 carries no verdict on the media, §4.5), then fails
// like non-media does (§9.5), with `[InternalErrorName.PROCESSOR_TRANSCODING_ERROR]` and a
// `MediaFetchException` naming the link and the reason (HTTP status, refused, no answer in time,
// TLS); a link whose content is not audio or video fails with the transcoder's usual message.
// The link is named without its query and fragment: a pre-signed cloud link carries its
// signature there, and a processor description ends up in logs and on screen.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { request as httpGet, type IncomingMessage } from 'node:http';
import { request as httpsGet } from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface LinkFetchOptions {
  /** Longest silence (connecting, waiting for headers, between body chunks). */
  timeoutMs: number;
  /** Extra trusted certificate(s) in PEM, for https links served with a test's own certificate. */
  ca?: string | undefined;
  maxRedirects?: number;
}

export type LinkFetchResult = { ok: true; bytes: number; hash: string } | { ok: false; reason: string };

export const LINK_FETCH = { timeoutMs: 30_000, maxRedirects: 5 } as const;

/** The link as it may be shown: scheme, host and path, never the query (signatures) or userinfo. */
export function displayLink(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(unreadable link)';
  }
}

export async function fetchLink(url: string, dest: string, o: LinkFetchOptions): Promise<LinkFetchResult> {
  let current = url;
  for (let hop = 0; hop <= (o.maxRedirects ?? LINK_FETCH.maxRedirects); hop++) {
    let res: IncomingMessage;
    try {
      res = await open(current, o);
    } catch (e) {
      return { ok: false, reason: describeNetworkError(e, o.timeoutMs) };
    }
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location !== undefined) {
      res.resume();
      const next = new URL(res.headers.location, current);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        return { ok: false, reason: `redirected to an unsupported address (${next.protocol})` };
      }
      current = next.href;
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      return { ok: false, reason: `HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}` };
    }
    return save(res, dest, o.timeoutMs);
  }
  return { ok: false, reason: 'too many redirects' };
}

function open(url: string, o: LinkFetchOptions): Promise<IncomingMessage> {
  const u = new URL(url);
  const get = u.protocol === 'https:' ? httpsGet : u.protocol === 'http:' ? httpGet : undefined;
  if (!get) return Promise.reject(new Error(`unsupported address (${u.protocol})`));
  return new Promise((resolve, reject) => {
    const req = get(u, { method: 'GET', ...(o.ca !== undefined ? { ca: o.ca } : {}) }, resolve);
    req.setTimeout(o.timeoutMs, () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.once('error', reject);
    req.end();
  });
}

async function save(res: IncomingMessage, dest: string, timeoutMs: number): Promise<LinkFetchResult> {
  const hash = createHash('sha256');
  let bytes = 0;
  res.setTimeout(timeoutMs, () => res.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(res, count, createWriteStream(dest));
  } catch (e) {
    return { ok: false, reason: describeNetworkError(e, timeoutMs) };
  }
  return { ok: true, bytes, hash: hash.digest('hex') };
}

function describeNetworkError(e: unknown, timeoutMs: number): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ETIMEDOUT':
      return `no answer within ${Math.round(timeoutMs / 100) / 10} s`;
    case 'ECONNRESET':
      return 'connection reset';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'CERT_HAS_EXPIRED':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `the server's certificate is not trusted (${code})`;
    default:
      return code ?? (e instanceof Error ? e.message : String(e));
  }
}
