// Export service (§6, C17/C18): one stream per request; READY waits up to min(timeout, 60 s).
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, EXPORT } from '../service/policy.js';
import type { ExportResult } from '../service/types.js';
import { rawQuery, type RouteConfig, type SandboxContext } from './context.js';
import { buildResult } from './export-result.js';
import { badRequest, conflict, notFound, requireUuid, SandboxHttpError } from './http-error.js';
import { listParam } from './routes-streams.js';
import type { StreamRecord } from './stream-store.js';

/** The result document of a finished stream, or null when it carries no exportable data. */
export function resultOf(rec: StreamRecord): ExportResult | null {
  if (!rec.template.exportable || rec.media?.kind !== 'media') return null;
  return buildResult({
    seed: rec.contentHash ?? rec.streamId,
    template: rec.template,
    properties: rec.properties,
    media: rec.media,
  });
}

function pickStream(ctx: SandboxContext, q: URLSearchParams): string {
  const ids = listParam(q, 'streams').map((s) => requireUuid(s, 'streams'));
  const inclusion = q.get('streamsInclusion') ?? 'INCLUDE';
  if (inclusion !== 'INCLUDE' && inclusion !== 'EXCLUDE')
    throw badRequest(`Invalid value for streamsInclusion: ${inclusion}`);
  const group = q.get('group');
  let chosen = ids;
  if (inclusion === 'EXCLUDE' || ids.length === 0) {
    if (group === null)
      throw badRequest(inclusion === 'EXCLUDE' ? 'EXCLUDE requires group and count' : 'Missing parameter: streams');
    const gid = requireUuid(group, 'group');
    const count = q.get('count');
    if (inclusion === 'EXCLUDE' && count === null) throw badRequest('EXCLUDE requires group and count');
    const limit = count === null ? Infinity : Number(count);
    if (!Number.isInteger(limit) && limit !== Infinity) throw badRequest(`Invalid value for count: ${count}`);
    chosen = ctx.store
      .all()
      .filter((r) => r.groupId === gid && !ids.includes(r.streamId))
      .slice(0, limit)
      .map((r) => r.streamId);
    if (chosen.length === 0) throw notFound(`No streams found in group ${gid}`);
  }
  if (chosen.length > 1) {
    throw badRequest('Exporting more than one stream per request is not supported', 'GENERAL_BAD_REQUEST_ERROR');
  }
  return chosen[0] as string;
}

function tagsMatch(rec: StreamRecord, q: URLSearchParams): boolean {
  const tags = listParam(q, 'tags');
  const wanted = tags.length > 0 ? tags : ['main'];
  const mode = q.get('matchTags') ?? 'ANY';
  if (mode !== 'ANY' && mode !== 'ALL') throw badRequest(`Invalid value for matchTags: ${mode}`);
  return rec.configuration.processors.some(
    (p) =>
      p.egress.persist &&
      (mode === 'ALL' ? wanted.every((t) => p.egress.tags.includes(t)) : wanted.some((t) => p.egress.tags.includes(t))),
  );
}

export function registerExport(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<{ Params: { format: string } }>(
    `${API_PREFIX.export}/export/:format`,
    { config: { operation: 'export' } satisfies RouteConfig },
    async (request, reply) => {
      const format = request.params.format;
      if (format !== 'JSON' && format !== 'TEXT') throw badRequest(`Unsupported export format: ${format}`);
      const q = rawQuery(request.url);
      const timeoutText = q.get('timeout');
      if (timeoutText !== null && !/^\d+$/.test(timeoutText))
        throw badRequest(`Invalid value for timeout: ${timeoutText}`);
      const id = pickStream(ctx, q);
      let rec = ctx.store.get(id);
      if (!rec) throw notFound(`Stream not found: ${id}`);
      if (rec.lifecycle.state === 'READY') {
        const wait = Math.min(
          timeoutText === null ? EXPORT.readyWaitMaxMs : Number(timeoutText),
          EXPORT.readyWaitMaxMs,
        );
        rec = (await ctx.store.waitWhileReady(id, wait)) ?? rec;
        if (rec.lifecycle.state === 'READY') {
          throw new SandboxHttpError(
            504,
            'GENERAL_TIME_OUT_ERROR',
            `Stream ${id} did not finish within the export timeout`,
          );
        }
      }
      if (rec.lifecycle.state === 'EXPIRED') throw notFound(`Stream ${id} has expired; its results were deleted`);
      if (rec.lifecycle.state === 'FAILED') throw conflict(`Stream ${id} is FAILED; there is nothing to export`);
      const exportDelay = ctx.profile?.exportDelayMs(id, rec.media?.kind === 'media' ? rec.media.durationMs : 0) ?? 0;
      if (exportDelay > 0) await new Promise((resolve) => setTimeout(resolve, exportDelay).unref());
      const result = tagsMatch(rec, q) ? resultOf(rec) : null;
      if (result === null) return reply.status(204).send();
      const body = format === 'JSON' ? JSON.stringify(result) : (result.transcription?.text ?? '');
      rec.egressBytes += Buffer.byteLength(body);
      void reply.type(format === 'JSON' ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8');
      return reply.send(body);
    },
  );
}
