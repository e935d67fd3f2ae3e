// POST …/upload (§4): query and patches → validated stream → body streamed to disk → 200 StreamDto
// once the whole body arrived (C10) → media probed and the processing timeline planned.
import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX, DEFAULT_STREAM_NAME_PREFIX, SANDBOX_BEHAVIOUR } from '../service/policy.js';
import { findTemplate, type TemplateSpec } from '../service/templates.js';
import type { StreamDto } from '../service/types.js';
import { receiveBody, UploadInterruptedError } from './body-sink.js';
import { buildConfiguration, defaultStreamName, type PersistOptions } from './configuration.js';
import { rawQuery, type RouteConfig, type SandboxContext } from './context.js';
import { badRequest, conflict, notFound, requireUuid, SandboxHttpError } from './http-error.js';
import * as lc from './lifecycle.js';
import { probeMedia } from './media-probe.js';
import { applyPatches, collectPatches } from './patch-apply.js';
import { groupQuery } from './patch-grammar.js';
import { toStreamDto, type StreamRecord } from './stream-store.js';
import { handleMultipart } from './upload-multipart.js';
import { collectWebhooks } from './webhooks.js';

/** Everything decided from the query (and the multipart configuration) before any byte is read. */
export interface Prepared {
  ctx: SandboxContext;
  template: TemplateSpec;
  streamId: string;
  groupId: string;
  name: string;
  persist: PersistOptions;
  query: Map<string, string[]>;
  header: string | undefined;
}

function single(q: Map<string, string[]>, key: string): string | undefined {
  const v = q.get(key);
  if (v && v.length > 1) throw badRequest(`Parameter ${key} must not be repeated`);
  return v?.[0];
}

function parseQuery(ctx: SandboxContext, request: FastifyRequest): Prepared {
  const query = groupQuery(rawQuery(request.url));
  const templateId = single(query, 'streamConfigurationTemplateId');
  if (templateId === undefined || templateId === '')
    throw badRequest('Missing parameter: streamConfigurationTemplateId');
  const template = findTemplate(templateId);
  if (!template) throw notFound(`Stream configuration template not found: ${templateId}`);
  const rawId = single(query, 'id');
  const streamId = rawId === undefined ? randomUUID() : requireUuid(rawId, 'id');
  const rawGroup = single(query, 'groupId');
  const groupId = rawGroup === undefined ? streamId : requireUuid(rawGroup, 'groupId');
  const name = single(query, 'name') ?? defaultStreamName(DEFAULT_STREAM_NAME_PREFIX);
  const persistText = single(query, 'persist');
  if (persistText !== undefined && persistText !== 'true' && persistText !== 'false') {
    throw badRequest(`Invalid value for persist: ${persistText}`);
  }
  const tags = query
    .get('persistTags')
    ?.flatMap((v) => v.split(','))
    .filter((t) => t !== '');
  if (tags?.some((t) => !/^[a-zA-Z0-9_.-]{1,255}$/.test(t))) throw badRequest('Invalid persistTags');
  const match = single(query, 'matchPersistTags') ?? 'ANY';
  if (match !== 'ANY' && match !== 'ALL') throw badRequest(`Invalid value for matchPersistTags: ${match}`);
  const header = request.headers['x-vat-meta-template-patch'];
  return {
    ctx,
    template,
    streamId,
    groupId,
    name,
    persist: {
      persist: persistText === 'true',
      persistTags: tags && tags.length > 0 ? tags : null,
      matchPersistTags: match,
    },
    query,
    header: Array.isArray(header) ? header.join(',') : header,
  };
}

/**
 * Validates patches and webhooks (with the multipart configuration when there is one), then
 * checks id, concurrency ceiling and capacity, and creates the READY stream.
 */
export function createStream(
  p: Prepared,
  multipart: { patches?: unknown; webhook?: unknown } | undefined,
): StreamRecord {
  const { ctx, template } = p;
  const properties = applyPatches(
    template,
    collectPatches({ header: p.header, query: p.query, multipart: multipart?.patches }),
  );
  const webhooks = collectWebhooks(p.query, multipart?.webhook, ctx.allowLocalWebhooks);
  if (ctx.store.has(p.streamId)) throw conflict(`Stream already exists: ${p.streamId}`);
  const fromFaults = ctx.faults.maxConcurrentStreams();
  const max = fromFaults === undefined ? ctx.maxConcurrentStreams : fromFaults;
  if (max !== null && ctx.store.countInState('READY') >= max) {
    throw new SandboxHttpError(429, 'STREAM_USAGE_LIMIT_REACHED', 'Maximum number of concurrent streams reached', {
      title: 'Stream usage limit reached',
      retryAfterS: SANDBOX_BEHAVIOUR.defaultRetryAfterS,
    });
  }
  const reservation = ctx.faults.reservationFailure();
  if (reservation) {
    throw new SandboxHttpError(503, 'PROCESSOR_FAILED_RESERVATION_ERROR', 'One or more processors are not available', {
      title: 'Processor unavailable',
      retryAfterS: reservation.retryAfterS,
    });
  }
  const now = ctx.now();
  return ctx.store.add({
    streamId: p.streamId,
    name: p.name,
    groupId: p.groupId,
    template,
    properties,
    configuration: buildConfiguration({
      template,
      properties,
      streamId: p.streamId,
      groupId: p.groupId,
      persist: p.persist,
      webhooks,
    }),
    createdAt: now,
    persisted: p.persist.persist,
    lifecycle: lc.created(template.processors, now),
    bytesReceived: 0,
    contentHash: null,
    media: null,
    processingMs: 0,
    egressBytes: 0,
  });
}

/** Streams one body into the stream's file; on success marks it received and starts processing. */
export async function feedStream(
  ctx: SandboxContext,
  rec: StreamRecord,
  source: NodeJS.ReadableStream,
  cut: () => void,
  complete: () => boolean = () => true,
): Promise<StreamDto> {
  const path = join(ctx.dataDir, `${rec.streamId}.bin`);
  const reset = ctx.faults.uploadReset();
  // Idempotent: lc.uploadInterrupted leaves a stream that is no longer READY alone.
  const markInterrupted = (): void => void ctx.store.update(rec.streamId, (l) => lc.uploadInterrupted(l, ctx.now()));
  try {
    const receipt = await receiveBody(source as never, path, {
      resetAfterBytes: reset?.afterBytes,
      // The stream is FAILED before the client can see the reset, as on the service.
      cut: () => {
        markInterrupted();
        cut();
      },
      onBytes: (b) => (rec.bytesReceived = b),
      throttle: ctx.faults.uploadThrottle(),
    });
    rec.bytesReceived = receipt.bytes;
    rec.contentHash = receipt.hash;
    if (!complete()) throw new UploadInterruptedError(receipt.bytes);
  } catch (e) {
    if (e instanceof UploadInterruptedError) rec.bytesReceived = e.bytes;
    markInterrupted();
    if (!ctx.keepBodies) void unlink(path).catch(() => undefined);
    throw e;
  }
  const receivedAt = ctx.now();
  const updated = ctx.store.update(rec.streamId, (l) => lc.bodyReceived(l, receivedAt)) ?? rec;
  const injected = ctx.faults.processingFailure();
  void probeMedia(path, rec.bytesReceived)
    .catch(() => ({ kind: 'invalid' }) as const)
    .then((media) => {
      ctx.store.startProcessing(rec.streamId, media, receivedAt, injected);
      // Results derive from the hash and the probe; the bytes themselves are no longer needed.
      if (!ctx.keepBodies) return unlink(path).catch(() => undefined);
      return undefined;
    });
  return toStreamDto(updated);
}

export function registerUpload(app: FastifyInstance, ctx: SandboxContext): void {
  void app.register(async (scope) => {
    // The body is read by the handler as a stream (no buffering, no size limit).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    scope.post(
      `${API_PREFIX.gateway}/upload`,
      { bodyLimit: Number.MAX_SAFE_INTEGER, config: { operation: 'upload' } satisfies RouteConfig },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const prepared = parseQuery(ctx, request);
        const cut = (): void => {
          request.raw.socket.destroy();
        };
        if ((request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
          return reply.send(await handleMultipart(request, prepared, cut));
        }
        const rec = createStream(prepared, undefined);
        return reply.send(await feedStream(ctx, rec, request.raw, cut, () => request.raw.complete));
      },
    );
  });
}
