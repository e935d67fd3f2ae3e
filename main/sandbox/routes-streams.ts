// Stream service (§5): find by id, paged list (C13/C14, C4 comma lists), cancel (C16), components.
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, PAGE } from '../service/policy.js';
import { STREAM_STATES, type Page, type StreamDto, type StreamState } from '../service/types.js';
import { rawQuery, type RouteConfig, type SandboxContext } from './context.js';
import { badRequest, conflict, notFound, requireUuid } from './http-error.js';
import * as lc from './lifecycle.js';
import { toComponentsDto, toStreamDto, type StreamRecord } from './stream-store.js';

const cfg = (operation: string): { config: RouteConfig } => ({ config: { operation } });

export function findRecord(ctx: SandboxContext, id: string): StreamRecord {
  const rec = ctx.store.get(requireUuid(id, 'streamId'));
  if (!rec) throw notFound(`Stream not found: ${id}`);
  return rec;
}

function intParam(q: URLSearchParams, key: string, def: number, min: number): number {
  const raw = q.get(key);
  if (raw === null || raw === '') return def;
  if (!/^-?\d+$/.test(raw)) throw badRequest(`Invalid value for ${key}: ${raw}`);
  const n = Number(raw);
  if (n < min) throw badRequest(`Invalid value for ${key}: ${raw}`);
  return n;
}

/** C4: repeated names and comma lists both work. */
export function listParam(q: URLSearchParams, key: string): string[] {
  return q
    .getAll(key)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function pageOf<T>(items: readonly T[], page: number, requested: number): Page<T> {
  const size = Math.min(requested, PAGE.maxSize);
  const content = items.slice(page * size, page * size + size);
  const totalPages = Math.ceil(items.length / size);
  const sort = { sorted: false, unsorted: true, empty: true };
  return {
    content,
    totalElements: items.length,
    totalPages,
    number: page,
    size,
    numberOfElements: content.length,
    first: page === 0,
    last: page >= totalPages - 1,
    empty: content.length === 0,
    sort,
    pageable: { pageNumber: page, pageSize: size, paged: true, unpaged: false, offset: page * size, sort },
  };
}

export function registerStreams(app: FastifyInstance, ctx: SandboxContext): void {
  const base = `${API_PREFIX.stream}/streams`;

  app.get<{ Params: { id: string } }>(`${base}/:id`, cfg('findById'), async (request) =>
    toStreamDto(findRecord(ctx, request.params.id)),
  );

  app.get(base, cfg('findAll'), async (request): Promise<Page<StreamDto>> => {
    const q = rawQuery(request.url);
    const states = listParam(q, 'state');
    for (const s of states) {
      if (!(STREAM_STATES as readonly string[]).includes(s)) throw badRequest(`Invalid value for state: ${s}`);
    }
    const page = intParam(q, 'page', 0, 0);
    const size = intParam(q, 'size', PAGE.defaultSize, 1);
    const wanted = new Set(states as StreamState[]);
    const items = ctx.store.all().filter((r) => wanted.size === 0 || wanted.has(r.lifecycle.state));
    return pageOf(items.map(toStreamDto), page, size);
  });

  app.put<{ Params: { id: string } }>(`${base}/:id/cancel`, cfg('cancel'), async (request) => {
    const rec = findRecord(ctx, request.params.id);
    const next = lc.cancel(rec.lifecycle, ctx.now());
    if (!next) throw conflict(`Stream ${rec.streamId} is already ${rec.lifecycle.state}`);
    rec.lifecycle = next;
    return toStreamDto(rec);
  });

  app.get<{ Params: { id: string } }>(`${base}/:id/components`, cfg('components'), async (request) =>
    toComponentsDto(findRecord(ctx, request.params.id)),
  );
}
