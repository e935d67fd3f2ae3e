// The templates an account may use: the configuration service's list (§13, custom templates
// included) merged with what Sluice knows of the public ones (§11.1, §11.2: labels, types, value
// lists). Pure: template DTOs in, AnyTemplates out. Parameters of a template Sluice has no richer
// description of come from its patch aliases, typed from the property each alias targets.
import { findTemplate, LANGUAGES, TEMPLATES, type AnyParam, type AnyTemplate, type ParamType } from './templates.js';
import type { StreamConfigurationTemplateDto } from './types.js';

export interface TemplateCatalogue {
  templates: readonly AnyTemplate[];
  /** 'account': the service's list was read (every page); 'builtin': only what Sluice ships. */
  source: 'account' | 'builtin';
  /** Why the account's list is missing (unreachable, refused); shown as a notice. */
  problem?: string;
}

export const BUILTIN_CATALOGUE: TemplateCatalogue = { templates: TEMPLATES, source: 'builtin' };

export function catalogueTemplate(catalogue: TemplateCatalogue, id: string): AnyTemplate | undefined {
  return catalogue.templates.find((t) => t.id === id) ?? findTemplate(id);
}

/** Every public parameter by name, so an alias named like one is described like it. */
const KNOWN_PARAMS: ReadonlyMap<string, AnyParam> = new Map(
  TEMPLATES.flatMap((t) => t.params).map((p) => [p.name, p] as const),
);

type ProcessorDto = StreamConfigurationTemplateDto['processors'][number];

/** `properties/a/b`, `/properties/a/b` or `a.b` → ['a', 'b'] inside the processor's properties. */
function propertyPath(relative: string): string[] | undefined {
  const parts = relative
    .replace(/^\/+/, '')
    .split(/[/.]/)
    .filter((x) => x !== '');
  if (parts[0] !== 'properties' || parts.length < 2) return undefined;
  return parts.slice(1);
}

/** A template-level alias: `processors/<index or id>/properties/…` relative to the template (§4.3). */
function templateAliasTarget(
  dto: StreamConfigurationTemplateDto,
  relative: string,
): { processor: ProcessorDto; path: string[] } | undefined {
  const parts = relative
    .replace(/^\/+/, '')
    .split(/[/.]/)
    .filter((x) => x !== '');
  if (parts[0] !== 'processors' || parts[1] === undefined) return undefined;
  const key = parts[1];
  const processor = /^\d+$/.test(key) ? dto.processors[Number(key)] : dto.processors.find((p) => p.id === key);
  const path = propertyPath(parts.slice(2).join('/'));
  return processor && path ? { processor, path } : undefined;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let cur = root;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** `stream.summaryStyle` → "Summary style"; `transcriber.noSpeechThreshold` → "No speech threshold". */
export function aliasLabel(alias: string): string {
  const last = alias.split('.').pop() ?? alias;
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function groupOf(processor: ProcessorDto): AnyParam['group'] {
  const schema = processor.propertiesSchema ?? '';
  if (processor.id === 'diarization' || /pyannote/i.test(schema)) return 'diarization';
  if (processor.id === 'llm' || /\.llm\./i.test(schema)) return 'intelligence';
  return 'transcription';
}

function describedAlias(alias: string, processor: ProcessorDto, path: string[]): AnyParam {
  const known = KNOWN_PARAMS.get(alias);
  if (known) return { ...known, processor: processor.id, path };
  const current = valueAt(processor.properties, path);
  const base = { name: alias, label: aliasLabel(alias), processor: processor.id, path, group: groupOf(processor) };
  const last = path[path.length - 1] ?? '';
  if (/^(language|allowedLanguages)$/.test(last))
    return { ...base, type: 'language', repeatable: true, values: LANGUAGES };
  if (Array.isArray(current)) return { ...base, type: 'string', repeatable: true };
  const type: ParamType = typeof current === 'boolean' ? 'boolean' : typeof current === 'number' ? 'number' : 'string';
  const scalar = typeof current === 'string' || typeof current === 'number' || typeof current === 'boolean';
  return { ...base, type, ...(scalar ? { default: current } : {}) };
}

/** Every alias of the template (template level, then each processor's) as a parameter. */
export function aliasParams(dto: StreamConfigurationTemplateDto): AnyParam[] {
  const out = new Map<string, AnyParam>();
  for (const [alias, relative] of Object.entries(dto.patchAliases ?? {})) {
    const target = templateAliasTarget(dto, relative);
    if (target) out.set(alias, describedAlias(alias, target.processor, target.path));
  }
  for (const processor of dto.processors ?? []) {
    for (const [alias, relative] of Object.entries(processor.patchAliases ?? {})) {
      const path = propertyPath(relative);
      if (path && !out.has(alias)) out.set(alias, describedAlias(alias, processor, path));
    }
  }
  return [...out.values()];
}

/** A template of the account, described from what the service says of it. */
export function templateFromDto(dto: StreamConfigurationTemplateDto): AnyTemplate {
  const processors = dto.processors ?? [];
  return {
    id: dto.id,
    name: dto.name || dto.id,
    description: dto.description ?? '',
    processors: processors.map((p) => p.id),
    diarizes: processors.some((p) => groupOf(p) === 'diarization'),
    params: aliasParams(dto),
    // An echo-only pipeline (NoPropertiesDto everywhere) yields raw bytes, not an exportable result.
    exportable: processors.some((p) => !/NoPropertiesDto$/.test(p.propertiesSchema ?? '')),
    account: true,
  };
}

/**
 * The catalogue from the account's list: public templates keep Sluice's description (plus any alias
 * the account's copy adds), the account's own templates are described from their aliases, and the
 * public templates the list leaves out stay offered (§11.1 GAP: the list may omit them).
 */
export function mergeCatalogue(listed: readonly StreamConfigurationTemplateDto[]): TemplateCatalogue {
  const seen = new Set<string>();
  const account: AnyTemplate[] = [];
  const extras = new Map<string, AnyParam[]>();
  for (const dto of listed) {
    if (seen.has(dto.id)) continue;
    seen.add(dto.id);
    const builtin = findTemplate(dto.id);
    if (builtin) {
      const more = aliasParams(dto).filter((p) => !builtin.params.some((b) => b.name === p.name));
      if (more.length) extras.set(dto.id, more);
    } else account.push(templateFromDto(dto));
  }
  const builtins = TEMPLATES.map((t): AnyTemplate => {
    const more = extras.get(t.id);
    return more ? { ...t, params: [...t.params, ...more] } : t;
  });
  return { templates: [...builtins, ...account], source: 'account' };
}

/** The one sentence shown (Settings, CLI) when the account's templates could not be read. */
export function catalogueNotice(catalogue: TemplateCatalogue): string | undefined {
  if (catalogue.problem === undefined) return undefined;
  const kept =
    catalogue.source === 'account'
      ? 'Sluice keeps offering the templates it read before'
      : 'Sluice offers the public templates it knows';
  return `The account’s templates could not be read (${catalogue.problem}). ${kept}; a template it cannot describe has its parameters checked by the service.`;
}
