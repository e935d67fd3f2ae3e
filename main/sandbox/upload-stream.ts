// The stream behind an upload, shared by the plain and the multipart body: created from what the
// query (and the multipart configuration) decided, then fed the body.
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SANDBOX_BEHAVIOUR } from '../service/policy.js';
import type { TemplateSpec } from '../service/templates.js';
import type { StreamDto } from '../service/types.js';
import { receiveBody, UploadInterruptedError } from './body-sink.js';
import { buildConfiguration, type PersistOptions } from './configuration.js';
import type { SandboxContext } from './context.js';
import { conflict, SandboxHttpError } from './http-error.js';
import * as lc from './lifecycle.js';
import { probeBody, type ProbedBody } from './link-media.js';
import { applyPatches, collectPatches } from './patch-apply.js';
import { toStreamDto, type StreamRecord } from './stream-store.js';
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
  // CHOICE (contract §4.5): a reused id is refused with 409 before the body is read. GAP: the real
  // gateway publishes only the status; when it answers and how it scopes ids is unknown. Team mode
  // (engine/shared-folder.ts) relies on the claims first and on this 409 only as the safety net.
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
  const injected = ctx.faults.processingFailure(rec.name);
  void probeBody(path, rec.bytesReceived, { ...ctx.linkFetch, keep: ctx.keepBodies })
    .catch((): ProbedBody => ({ media: { kind: 'invalid' }, viaLink: false }))
    .then((probed) => {
      if (probed.contentHash !== undefined) rec.contentHash = probed.contentHash;
      // A fetched link starts processing once its media arrived, not when its text did.
      const startAt = probed.viaLink ? ctx.now() : receivedAt;
      ctx.store.startProcessing(rec.streamId, probed.media, startAt, injected);
      // Results derive from the hash and the probe; the bytes themselves are no longer needed.
      if (!ctx.keepBodies) return unlink(path).catch(() => undefined);
      return undefined;
    });
  return toStreamDto(updated);
}
