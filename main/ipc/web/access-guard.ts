// Who may use the web bridge. Deny by default: only GET/HEAD of the static interface is public;
// everything else needs the access token AND must come from the bridge's own origin.
// Note: the guard runs as an onRequest hook, after the router has chosen the route, so it judges
// the route the request will actually reach (`routeOptions.url`), not its own reading of the
// target. A spelling the router reads as an /api route (`/%61pi/…`, absolute-form targets) is
// therefore guarded like the plain one; a spelling the router sends to the static files but that
// normalises into /api (`//api/…`, `/x/../api/…`, `/API/…`) is refused too, so the two readings
// never have to agree for the guard to hold.
import path from 'node:path';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WEB, type Result } from '../../../preload/contract.js';

/** The one route that serves the interface's files (registered by static-files.ts). */
export const STATIC_ROUTE = '/*';

/**
 * The review view's player loads a job's source here. A media element cannot send headers, so the
 * URL carries a signature of the job id made with the token: it opens that one file and nothing
 * else, and the token itself never appears in a URL.
 */
export const MEDIA_ROUTE = '/media/:jobId';

export function mediaSignature(token: string, jobId: string): string {
  return createHmac('sha256', token).update(`media:${jobId}`).digest('base64url');
}

const MAX_DECODES = 4;

/**
 * The path a request target names once every reading a parser might apply is applied: origin of an
 * absolute-form target dropped, percent-decoded until stable, backslashes as slashes, duplicate
 * slashes and dot segments resolved, lower-cased. Undefined when the target cannot be decoded.
 */
export function normalisedPath(target: string): string | undefined {
  let p = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  p = p.split(/[?#]/, 1)[0] ?? '';
  for (let i = 0; i < MAX_DECODES && p.includes('%'); i++) {
    try {
      p = decodeURIComponent(p);
    } catch {
      return undefined;
    }
  }
  if (p.includes('%')) return undefined;
  return path.posix.normalize(`/${p.replace(/\\/g, '/')}`).toLowerCase();
}

/** Whether a normalised path is under the API (`/api`, `/api/…`, `/api;x`, `/api.`…). */
export function isApiPath(normalised: string): boolean {
  return /^\/api(?![a-z0-9_])/.test(normalised);
}

function isPublic(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.routeOptions.url !== STATIC_ROUTE) return false;
  const p = normalisedPath(req.raw.url ?? '');
  return p !== undefined && !isApiPath(p);
}

/** A browser says where a request comes from; anything but the bridge's own origin is refused. */
function crossSite(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== (req.headers.host ?? '').toLowerCase();
  } catch {
    return true; // "null" and other opaque origins
  }
}

function sameToken(given: unknown, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(reply: FastifyReply, status: 401 | 403, message: string): FastifyReply {
  return reply.code(status).send({
    ok: false,
    error: { code: 'FORBIDDEN', message, retryable: false },
  } satisfies Result<never>);
}

/** The onRequest check; answers the refusal itself and returns it, or returns undefined to go on. */
export function guardRequest(req: FastifyRequest, reply: FastifyReply, token: string): FastifyReply | undefined {
  if (isPublic(req)) return undefined;
  void reply.header('Cache-Control', 'no-store');
  if (crossSite(req)) return refuse(reply, 403, 'Sluice answers only its own page.');
  const query = req.query as Record<string, unknown> | undefined;
  if (req.routeOptions.url === MEDIA_ROUTE) {
    const jobId = (req.params as Record<string, unknown> | undefined)?.jobId;
    if (typeof jobId === 'string' && sameToken(query?.sig, mediaSignature(token, jobId))) return undefined;
    return refuse(reply, 401, 'This media link is not valid; open the transcript again.');
  }
  // EventSource cannot send headers: the event stream alone takes the token from the query.
  const given = req.headers[WEB.tokenHeader] ?? (req.routeOptions.url === WEB.eventsPath ? query?.token : undefined);
  if (!sameToken(given, token)) {
    return refuse(reply, 401, 'Open Sluice with the link `sluice serve` printed (it carries the access token).');
  }
  return undefined;
}
