// Templates of the sandbox's account besides the public ones (§13): an account's own template, with
// an id that is not a public one, aliases at template level and processor level, and one alias
// named like a public parameter. The sandbox lists, serves, previews and runs it like the others.
import { findTemplate, TEMPLATES, type BuiltinTemplate, type ParamSpec } from '../service/templates.js';
import type { StreamConfigurationTemplateDto } from '../service/types.js';
import { templateDto } from './processor-defaults.js';

export const ACCOUNT_TEMPLATE_ID = 'acme-newsroom-v2';

const publicParam = (name: string): ParamSpec => {
  const spec = findTemplate('669fee048452492b62cfad39')?.params.find((p) => p.name === name);
  if (!spec) throw new Error(`no public parameter ${name}`);
  return spec;
};

/** Template-level aliases (`stream.<property>`, §13) are served on the template, not on a processor. */
const TEMPLATE_LEVEL = 'stream.';

export const ACCOUNT_TEMPLATES: readonly BuiltinTemplate[] = [
  {
    id: ACCOUNT_TEMPLATE_ID,
    name: 'Acme newsroom (v2)',
    description: 'The newsroom’s own pipeline: transcription with speakers and a house-style summary.',
    processors: ['transcriber', 'diarization', 'llm'],
    diarizes: true,
    exportable: true,
    params: [
      publicParam('language'),
      publicParam('minSpeakersNumber'),
      publicParam('maxSpeakersNumber'),
      publicParam('summary'),
      publicParam('sentimentAnalysis'),
      {
        name: 'transcriber.noSpeechThreshold',
        label: 'No speech threshold',
        type: 'number',
        min: 0,
        max: 1,
        processor: 'transcriber',
        path: ['noSpeechThreshold'],
        group: 'transcription',
      },
      {
        name: `${TEMPLATE_LEVEL}summaryStyle`,
        label: 'Summary style',
        type: 'string',
        processor: 'llm',
        path: ['summary', 'properties', 'tone'],
        group: 'intelligence',
      },
    ],
  },
];

/** A template the sandbox's account may use: a public one or one of its own. */
export function findSandboxTemplate(id: string): BuiltinTemplate | undefined {
  return findTemplate(id) ?? ACCOUNT_TEMPLATES.find((t) => t.id === id);
}

export const SANDBOX_TEMPLATES: readonly BuiltinTemplate[] = [...TEMPLATES, ...ACCOUNT_TEMPLATES];

/** The configuration service's view of a template, template-level aliases moved to the template. */
export function sandboxTemplateDto(template: BuiltinTemplate): StreamConfigurationTemplateDto {
  const dto = templateDto(template);
  for (const [i, p] of dto.processors.entries()) {
    for (const [alias, relative] of Object.entries(p.patchAliases)) {
      if (!alias.startsWith(TEMPLATE_LEVEL)) continue;
      delete p.patchAliases[alias];
      dto.patchAliases[alias] = `processors/${i}/${relative}`;
    }
  }
  return dto;
}
