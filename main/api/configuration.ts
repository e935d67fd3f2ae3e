// Stream configuration service (§13): read a template, and preview patches without creating a stream.
import type { HttpCore } from './http.js';
import { parseTemplate } from './responses.js';
import type { CallOptions } from './streams.js';
import type { StreamConfigurationTemplateDto } from '../service/types.js';
import { requireTemplateId } from './validate.js';

/** One RFC 6902 operation (only add/replace/remove are allowed by the service, §4.3). */
export interface JsonPatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

export class ConfigurationApi {
  constructor(private readonly core: HttpCore) {}

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
