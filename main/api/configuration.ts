// Stream configuration service (§13): read a template, and preview patches without creating a stream.
import type { HttpCore } from './http.js';
import { PAGE } from '../service/policy.js';
import { parseTemplate, parseTemplatePage } from './responses.js';
import type { CallOptions } from './streams.js';
import type { Page, StreamConfigurationTemplateDto } from '../service/types.js';
import { requireInt, requireTemplateId } from './validate.js';

export interface ListTemplatesOptions extends CallOptions {
  page?: number;
  size?: number;
}

/** One RFC 6902 operation (only add/replace/remove are allowed by the service, §4.3). */
export interface JsonPatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

export class ConfigurationApi {
  constructor(private readonly core: HttpCore) {}

  /** One page of the templates the account may use, custom ones included. */
  async list(opts: ListTemplatesOptions = {}): Promise<Page<StreamConfigurationTemplateDto>> {
    const op = 'list templates';
    const page = requireInt(op, 'page', opts.page ?? 0, 0);
    const size = requireInt(op, 'page size', opts.size ?? PAGE.defaultSize, 1);
    const path = '/stream-configuration-templates';
    const res = await this.core.call({
      service: 'configuration',
      operation: op,
      method: 'GET',
      path,
      query: [
        ['page', String(page)],
        ['size', String(size)],
      ],
      timeoutMs: this.core.timeouts.configuration,
      retry: 'idempotent',
      signal: opts.signal,
    });
    return parseTemplatePage(res.body, this.core.where('configuration', path));
  }

  /** Every template the account may use, page after page until `last`. */
  async *iterate(opts: Omit<ListTemplatesOptions, 'page'> = {}): AsyncGenerator<StreamConfigurationTemplateDto> {
    for (let page = 0; ; page++) {
      const p = await this.list({ ...opts, page, size: opts.size ?? PAGE.maxSize });
      yield* p.content;
      if (p.last || p.content.length === 0) return;
    }
  }

  async template(templateId: string, opts: CallOptions = {}): Promise<StreamConfigurationTemplateDto> {
    const id = requireTemplateId('read template', templateId);
    const path = `/stream-configuration-templates/${id}`;
    const res = await this.core.call({
      service: 'configuration',
      operation: 'read template',
      method: 'GET',
      path,
      timeoutMs: this.core.timeouts.configuration,
      retry: 'idempotent',
      signal: opts.signal,
    });
    return parseTemplate(res.body, this.core.where('configuration', path));
  }

  /** The template with the patches applied; the stored template is unchanged, hence replayable. */
  async preview(
    templateId: string,
    patches: ReadonlyArray<JsonPatchOperation | readonly JsonPatchOperation[]>,
    opts: CallOptions = {},
  ): Promise<StreamConfigurationTemplateDto> {
    const id = requireTemplateId('preview template', templateId);
    const path = `/stream-configuration-templates/${id}`;
    const res = await this.core.call({
      service: 'configuration',
      operation: 'preview template',
      method: 'PATCH',
      path,
      headers: { 'content-type': 'application/json' },
      // Each element is itself JSON text (§13).
      body: JSON.stringify({ jsonPatches: patches.map((p) => JSON.stringify(p)) }),
      timeoutMs: this.core.timeouts.configuration,
      retry: 'idempotent',
      signal: opts.signal,
    });
    return parseTemplate(res.body, this.core.where('configuration', path));
  }
}
