// Sandbox-only admin endpoints (need the sandbox's credentials, never hit by faults):
//   GET  /sandbox/admin/faults   → the current FaultConfig (with the `next` counts left)
//   PUT  /sandbox/admin/faults   ← a FaultConfig JSON; replaces the configuration, resets counters
//   GET  /sandbox/admin/stats    → { <operation>: count, ... }
//   DELETE /sandbox/admin/stats  → resets the counts (204)
import type { FastifyInstance } from 'fastify';
import type { RouteConfig, SandboxContext } from './context.js';
import { parseFaultConfig } from './faults.js';
import { badRequest } from './http-error.js';

const cfg = (operation: string): { config: RouteConfig } => ({ config: { operation, admin: true } });

export function registerAdmin(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/sandbox/admin/faults', cfg('adminFaults'), async () => ctx.faults.get());
  app.put('/sandbox/admin/faults', cfg('adminFaults'), async (request) => {
    try {
      ctx.faults.set(parseFaultConfig(request.body ?? {}));
    } catch (e) {
      throw badRequest((e as Error).message);
    }
    return ctx.faults.get();
  });
  app.get('/sandbox/admin/stats', cfg('adminStats'), async () => Object.fromEntries(ctx.stats));
  app.delete('/sandbox/admin/stats', cfg('adminStats'), async (_request, reply) => {
    ctx.stats.clear();
    return reply.status(204).send();
  });
}
