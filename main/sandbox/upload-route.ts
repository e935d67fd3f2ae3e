// POST …/upload (§4): query and patches → validated stream → body streamed to disk → 200 StreamDto
// once the whole body arrived (C10) → media probed and the processing timeline planned.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX, DEFAULT_STREAM_NAME_PREFIX } from '../service/policy.js';
import { findSandboxTemplate } from './account-templates.js';
import { defaultStreamName } from './configuration.js';
import { rawQuery, type RouteConfig, type SandboxContext } from './context.js';
import { badRequest, notFound, requireUuid } from './http-error.js';
import { groupQuery } from './patch-grammar.js';
import { handleMultipart } from './upload-multipart.js';
import { createStream, feedStream, type Prepared } from './upload-stream.js';

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
  const template = findSandboxTemplate(templateId);
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
