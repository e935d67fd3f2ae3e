// Usage service (§7, C19): the report over every stream the sandbox processed, and per stream.
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, SANDBOX, USAGE } from '../service/policy.js';
import { GRANULARITIES, type Granularity, type StreamUsageDto } from '../service/types.js';
import { rawQuery, type RouteConfig, type SandboxContext } from './context.js';
import { badRequest, SandboxHttpError } from './http-error.js';
import { findRecord } from './routes-streams.js';
import { usageRecords } from './usage-records.js';
import { buildReport, convertMicro, formatMicro, isSupportedCurrency, parseMicro } from './usage.js';

const cfg = (operation: string): { config: RouteConfig } => ({ config: { operation } });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

function currencyOf(q: URLSearchParams): string | null {
  const c = q.get('currency');
  if (c === null || c === '') return null;
  if (!isSupportedCurrency(c)) {
    throw new SandboxHttpError(400, 'CURRENCY_ERROR', `Unsupported currency: ${c}`, { title: 'Invalid currency' });
  }
  return c;
}

function instant(q: URLSearchParams, key: string, def: number): number {
  const raw = q.get(key);
  if (raw === null || raw === '') return def;
  const ms = ISO.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms)) throw badRequest(`Invalid date-time for ${key}: ${raw}`);
  return ms;
}

export function registerUsage(app: FastifyInstance, ctx: SandboxContext): void {
  app.get(`${API_PREFIX.usage}/usage/report`, cfg('usageReport'), async (request) => {
    const q = rawQuery(request.url);
    const now = ctx.now();
    const d = new Date(now);
    const start = instant(q, 'start', Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
    const end = instant(q, 'end', now);
    const granularity = (q.get('granularity') ?? 'HOURS') as Granularity;
    if (!GRANULARITIES.includes(granularity)) throw badRequest(`Invalid value for granularity: ${granularity}`);
    const currency = currencyOf(q);
    if (end <= start) {
      throw new SandboxHttpError(400, 'USAGE_INTERVAL_TOO_SHORT', 'The end of the interval must be after its start', {
        title: 'Invalid interval',
      });
    }
    if (end - start > USAGE.maxIntervalMs[granularity]) {
      throw new SandboxHttpError(
        400,
        'USAGE_INTERVAL_TOO_LONG',
        `The interval is too long for ${granularity} granularity`,
        {
          title: 'Invalid interval',
        },
      );
    }
    return buildReport(ctx.usage(now), { start, end, granularity, currency });
  });

  app.get<{ Params: { id: string } }>(`${API_PREFIX.usage}/usage/streams/:id`, cfg('streamUsage'), async (request) => {
    const currency = currencyOf(rawQuery(request.url));
    const rec = findRecord(ctx, request.params.id);
    const dto: StreamUsageDto = {
      creatorId: SANDBOX.creatorId,
      groupId: rec.groupId,
      streamId: rec.streamId,
      streamConfigurationTemplateId: rec.template.id,
      currency,
      processors: usageRecords(rec, ctx.now()).map((u) => ({
        ...u,
        credits: formatMicro(convertMicro(parseMicro(u.credits), currency)),
      })),
    };
    return dto;
  });
}
