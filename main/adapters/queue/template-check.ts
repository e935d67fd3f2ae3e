// "Check these settings": a template and its parameters checked by Sluice (templateProblems), then
// by the service through the configuration service's preview (§13, §11.3 last paragraph), which
// applies the patches to the template without creating a stream.
import { isServiceError } from '../../service/errors.js';
import { catalogueTemplate, type TemplateCatalogue } from '../../service/template-catalogue.js';
import type { StreamConfigurationTemplateDto } from '../../service/types.js';
import { previewPatches, templateProblems, uncheckedNotice, type PreviewPatch } from '../../engine/params.js';
import type { Params } from '../../engine/settings.js';

export interface TemplateCheckPort {
  previewTemplate(templateId: string, patches: readonly PreviewPatch[]): Promise<StreamConfigurationTemplateDto>;
}

export interface TemplateCheckProblem {
  /** `templateId`, `params.<name>`, or '' when the service's answer names no parameter. */
  field: string;
  message: string;
}

export interface TemplateCheckResult {
  ok: boolean;
  /** Who gave the verdict: Sluice alone (it found problems first) or the service. */
  checkedBy: 'sluice' | 'service';
  problems: TemplateCheckProblem[];
  notice?: string;
}

/** The parameter a service message names ("Invalid value for summaryTone: …", "Forbidden patch: /langs"). */
function fieldOf(message: string, params: Params): string {
  const names = Object.keys(params).sort((a, b) => b.length - a.length);
  const hit = names.find((n) =>
    new RegExp(`(^|[^A-Za-z0-9.])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9])`).test(message),
  );
  return hit ? `params.${hit}` : '';
}

/** Statuses that carry the service's verdict on the settings (the rest mean it could not judge). */
const VERDICT_STATUSES = new Set([400, 404, 422]);

export async function checkTemplateSettings(
  port: TemplateCheckPort,
  catalogue: TemplateCatalogue,
  templateId: string,
  params: Params,
): Promise<TemplateCheckResult> {
  const notice = uncheckedNotice(templateId, catalogue);
  const base = notice ? { notice } : {};
  const local = templateProblems(templateId, params, catalogue);
  if (local.length > 0) {
    return {
      ok: false,
      checkedBy: 'sluice',
      problems: local.map((p) => ({ field: p.field, message: p.message })),
      ...base,
    };
  }
  try {
    await port.previewTemplate(templateId, previewPatches(catalogueTemplate(catalogue, templateId), params));
    return { ok: true, checkedBy: 'service', problems: [], ...base };
  } catch (e) {
    if (!isServiceError(e) || e.kind !== 'http' || !VERDICT_STATUSES.has(e.statusCode ?? 0)) throw e;
    const named = e.internalErrorName ? ` [${e.internalErrorName}]` : '';
    const field = e.statusCode === 404 ? 'templateId' : fieldOf(e.message, params);
    return { ok: false, checkedBy: 'service', problems: [{ field, message: `${e.message}${named}` }], ...base };
  }
}
