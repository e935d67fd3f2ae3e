// Configuration service (§13, C30): list, get (optional header patches) and PATCH preview of the
// built-in templates and the account's own; PUT is refused with 403 as for an ordinary account.
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, PAGE } from '../service/policy.js';
import type { StreamConfigurationTemplateDto } from '../service/types.js';
import { rawQuery, type RouteConfig, type SandboxContext } from './context.js';
import { badRequest, notFound, SandboxHttpError } from './http-error.js';
import { applyPatches } from './patch-apply.js';
import { headerPatches, type PatchOp } from './patch-grammar.js';
import { findSandboxTemplate, SANDBOX_TEMPLATES, sandboxTemplateDto } from './account-templates.js';
import { pageOf } from './routes-streams.js';

const cfg = (operation: string): { config: RouteConfig } => ({ config: { operation } });

function patched(id: string, ops: PatchOp[]): StreamConfigurationTemplateDto {
  const template = findSandboxTemplate(id);
  if (!template) throw notFound(`Stream configuration template not found: ${id}`);
  const dto = sandboxTemplateDto(template);
  if (ops.length === 0) return dto;
  const props = applyPatches(template, ops);
  dto.processors = dto.processors.map((p, i) => ({ ...p, properties: props[i] ?? p.properties }));
  return dto;
}

function nonNegative(q: URLSearchParams, key: string, def: number, min: number): number {
  const raw = q.get(key);
  if (raw === null) return def;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw badRequest(`Invalid value for ${key}: ${raw}`);
  return Number(raw);
}

export function registerConfiguration(app: FastifyInstance, _ctx: SandboxContext): void {
  const base = `${API_PREFIX.configuration}/stream-configuration-templates`;

  app.get(base, cfg('templateList'), async (request) => {
    const q = rawQuery(request.url);
    const page = nonNegative(q, 'page', 0, 0);
    const size = nonNegative(q, 'size', PAGE.defaultSize, 1);
    // C26: every built-in template is served, the sandbox-only one labelled (templateDto), and
    // the account's own templates after them.
    return pageOf(SANDBOX_TEMPLATES.map(sandboxTemplateDto), page, size);
  });

  app.get<{ Params: { id: string } }>(`${base}/:id`, cfg('templateGet'), async (request) => {
    const header = request.headers['x-vat-meta-template-patch'];
    return patched(request.params.id, headerPatches(Array.isArray(header) ? header[0] : header));
  });

  app.patch<{ Params: { id: string }; Body: unknown }>(`${base}/:id`, cfg('templatePatch'), async (request) => {
    const body = request.body as { jsonPatches?: unknown } | undefined;
    const list = body?.jsonPatches ?? [];
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) {
      throw badRequest('jsonPatches must be an array of JSON Patch texts', 'STREAM_CONFIGURATION_BAD_PATCH');
    }
    return patched(
      request.params.id,
      list.flatMap((text) => headerPatches(text)),
    );
  });

  app.put(base, cfg('templatePut'), async () => {
    throw new SandboxHttpError(403, 'GENERAL_AUTHORIZATION_ERROR', 'You are not allowed to perform this action');
  });
}
