// The one fastify app serving every service prefix (C1). Cross-cutting order for each request:
// count it (stats) → added latency → credentials (C2/C3) → injected 429/5xx → the profile's
// occasional 503 (profile.ts) → the route.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { authenticate } from './auth.js';
import { rawQuery, type RouteConfig, type SandboxContext } from './context.js';
import { SandboxHttpError } from './http-error.js';
import { registerAdmin } from './routes-admin.js';
import { registerConfiguration } from './routes-configuration.js';
import { registerExport } from './routes-export.js';
import { registerStreams } from './routes-streams.js';
import { registerToken } from './routes-token.js';
import { registerUsage } from './routes-usage.js';
import { registerUpload } from './upload-route.js';

const routeConfig = (request: FastifyRequest): Partial<RouteConfig> =>
  (request.routeOptions.config as Partial<RouteConfig> | undefined) ?? {};

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });

// No route declares a fastify schema: every body and query is checked by zod in its handler. So
// fastify's JSON Schema compilers are never asked for, and giving these in their place spares
// setting them up at every start (its Ajv compiler with formats, and fast-json-stringify's). A
// route given a schema by mistake fails at once, naming the rule.
const noSchema = (): never => {
  throw new Error('sandbox routes declare no fastify schema: check the request with zod in the handler');
};
const NO_ROUTE_SCHEMAS = { compilersFactory: { buildValidator: noSchema, buildSerializer: noSchema } };

export function buildServer(ctx: SandboxContext, log?: (line: string) => void): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: true, schemaController: NO_ROUTE_SCHEMAS });

  app.addHook('onRequest', async (request, reply) => {
    const cfg = routeConfig(request);
    const op = cfg.operation ?? 'unknown';
    ctx.stats.set(op, (ctx.stats.get(op) ?? 0) + 1);
    if (cfg.admin) {
      authenticateRequest(ctx, request);
      return;
    }
    const delay = ctx.faults.latencyMs(op);
    if (delay > 0) await sleep(delay);
    if (!cfg.public && cfg.operation !== undefined) authenticateRequest(ctx, request);
    if (cfg.operation === undefined) return;
    const limited = ctx.faults.rateLimit(op);
    if (limited) {
      // Note: the contract publishes no request rate limit (§15.1 GAP) and names only the account's
      // usage limit for 429. A rate limit comes from the gateway in front of the service, with its
      // own short body and no internalErrorName; the usage limit is the concurrency ceiling's 429.
      return reply
        .status(429)
        .header('retry-after', String(limited.retryAfterS))
        .send({ message: 'Too many requests (rate limit injected by the sandbox)' });
    }
    const broken = ctx.faults.serverError(op);
    if (broken) {
      throw new SandboxHttpError(
        broken.status,
        broken.status === 503 ? 'PROCESSOR_FAILED_RESERVATION_ERROR' : 'GENERAL_INTERNAL_ERROR',
        `Server error ${broken.status} (injected by the sandbox)`,
        broken.status === 503 || broken.status === 429 ? { retryAfterS: broken.retryAfterS } : {},
      );
    }
    const busy = cfg.public ? null : ctx.profile?.serverError(op);
    if (busy) {
      throw new SandboxHttpError(busy.status, 'PROCESSOR_FAILED_RESERVATION_ERROR', 'Service busy, try again later', {
        retryAfterS: busy.retryAfterS,
      });
    }
  });

  if (log) {
    // Only method, path and status: query strings may carry credentials (A2/A4/A6).
    app.addHook('onResponse', async (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      log(`${request.method} ${path} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms`);
    });
  }

  app.setErrorHandler((error: FastifyError | SandboxHttpError, _request, reply) => {
    if (reply.raw.destroyed || reply.sent) return;
    if (error instanceof SandboxHttpError) {
      if (error.retryAfterS !== undefined) void reply.header('retry-after', String(error.retryAfterS));
      return reply.status(error.statusCode).send(error.toBody());
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    const e = new SandboxHttpError(
      status,
      status >= 500 ? 'GENERAL_INTERNAL_ERROR' : 'GENERAL_BAD_REQUEST_ERROR',
      status >= 500 ? 'Internal sandbox error' : error.message,
    );
    return reply.status(status).send(e.toBody());
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const e = new SandboxHttpError(404, 'GENERAL_NOT_FOUND_ERROR', `No such endpoint: ${request.method} ${path}`);
    return reply.status(404).send(e.toBody());
  });

  registerToken(app, ctx);
  registerUpload(app, ctx);
  registerStreams(app, ctx);
  registerExport(app, ctx);
  registerUsage(app, ctx);
  registerConfiguration(app, ctx);
  registerAdmin(app, ctx);
  return app;
}

function authenticateRequest(ctx: SandboxContext, request: FastifyRequest): void {
  const h = (name: string): string | undefined => {
    const v = request.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  authenticate(
    {
      authorization: h('authorization'),
      clientIdHeader: h('x-client-id'),
      clientSecretHeader: h('x-client-secret'),
      query: rawQuery(request.url),
    },
    ctx.creds,
    ctx.tokens,
  );
}
