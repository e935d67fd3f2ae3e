// §2.2 token endpoint: form-urlencoded in, OAuth JSON out (400 with {error, error_description}).
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../service/policy.js';
import { exchangeToken } from './auth.js';
import type { RouteConfig, SandboxContext } from './context.js';

export function registerToken(app: FastifyInstance, ctx: SandboxContext): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => {
        done(null, new URLSearchParams(String(body)));
      },
    );
    scope.post(
      `${API_PREFIX.auth}/token`,
      { config: { operation: 'token', public: true } satisfies RouteConfig },
      async (request, reply) => {
        const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
        const r = exchangeToken(form, request.headers.authorization, ctx.creds, ctx.tokens);
        void reply.header('cache-control', 'no-store');
        return reply.status(r.ok ? 200 : 400).send(r.body);
      },
    );
  });
}
