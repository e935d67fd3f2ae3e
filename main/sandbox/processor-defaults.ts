// Default processor properties of the sandbox's built-in templates (contract §11.4), and the
// StreamConfigurationTemplateDto the configuration service serves (§13). Realistic enough that a
// client reading `configuration.processors[].properties` sees the shapes the real service uses.
import type { ProcessorId, TemplateSpec } from '../service/templates.js';
import type { StreamConfigurationTemplateDto } from '../service/types.js';
import { LIMITS } from '../service/policy.js';

const SCHEMA_PREFIX = 'tech.vatis.schema.stream.processor.properties.';

export type Props = Record<string, unknown>;

export interface ProcessorTemplate {
  id: ProcessorId;
  name: string;
  propertiesSchema: string;
  properties: Props;
}

const ROMANIAN_IDS = new Set(['678e26e695f8f5742e8718f4', '678e375095f8f5742e8718f5']);

export function isRomanian(template: TemplateSpec): boolean {
  return ROMANIAN_IDS.has(template.id);
}

const feature = (properties: Props = {}): Props => ({ enabled: false, flushInterval: null, properties });

const askSlot = (n: number): Props => ({
  promptId: String(n),
  enabled: true,
  flushInterval: null,
  responseFormat: { specification: null, strict: true, includeInResponse: false },
  content: null,
  properties: {},
  systemPrompt: null,
  systemPromptProperties: {},
});

function processorTemplate(id: ProcessorId, template: TemplateSpec): ProcessorTemplate {
  switch (id) {
    case 'transcriber':
      return isRomanian(template)
        ? {
            id,
            name: 'Romanian transcriber',
            propertiesSchema: `${SCHEMA_PREFIX}rotranscriber.RoTranscriberPropertiesDto`,
            properties: {
              disfluencies: false,
              punctuationCapitalization: true,
              numeralsConversion: true,
              splitStereo: false,
              findReplace: true,
              findReplaceExpressions: null,
            },
          }
        : {
            id,
            name: 'Transcriber',
            propertiesSchema: `${SCHEMA_PREFIX}fasterwhisper.FasterWhisperProcessorPropertiesDto`,
            properties: {
              language: null,
              allowedLanguages: null,
              vad: true,
              noSpeechThreshold: 0.5,
              splitStereo: false,
            },
          };
    case 'diarization':
      return {
        id,
        name: 'Speaker diarization',
        propertiesSchema: `${SCHEMA_PREFIX}pyannote.PyAnnoteProcessorPropertiesDto`,
        properties: { speakersNumber: null, minSpeakersNumber: null, maxSpeakersNumber: null },
      };
    case 'llm':
      return {
        id,
        name: 'Audio intelligence',
        propertiesSchema: `${SCHEMA_PREFIX}llm.LlmPropertiesDto`,
        properties: {
          summary: feature({ length: 'brief', tone: 'conversational', structure: 'paragraphs' }),
          sentimentAnalysis: feature(),
          topicDetection: feature(),
          autoChapter: feature(),
          intentDetection: feature(),
          askAnything: Array.from({ length: LIMITS.askSlots }, (_, n) => askSlot(n)),
          // C28: the sandbox keeps the enhancement switches beside the other llm features.
          enhancedTranscription: { enabled: false, model: 'standard', vocabulary: null, systemPrompt: null },
        },
      };
    case 'echo':
      return { id, name: 'Echo', propertiesSchema: `${SCHEMA_PREFIX}NoPropertiesDto`, properties: {} };
    case 'transcoder':
      return {
        id,
        name: 'Transcoder',
        propertiesSchema: `${SCHEMA_PREFIX}transcoder.TranscoderProcessorPropertiesDto`,
        properties: {
          inputFormat: null,
          outputFormat: 'wav',
          outputBufferSize: 65536,
          commandArguments: [],
          ffprobe: { probeSize: null, analyzeDuration: null, commandArguments: [] },
          mode: null,
        },
      };
  }
}

export function processorTemplates(template: TemplateSpec): ProcessorTemplate[] {
  return template.processors.map((id) => processorTemplate(id, template));
}

/** Processor-level alias → path relative to the processor, as the configuration service shows it. */
function aliasesOf(template: TemplateSpec, processor: ProcessorId): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of template.params) {
    if (p.processor === processor) out[p.name] = ['properties', ...p.path].join('/');
  }
  return out;
}

export function templateDto(template: TemplateSpec): StreamConfigurationTemplateDto {
  const procs = processorTemplates(template);
  return {
    id: template.id,
    name: template.sandboxOnly ? `${template.name} [sandbox]` : template.name,
    description: template.description,
    dataSourceSchema: 'bytes',
    processors: procs.map((p, i) => ({
      id: p.id,
      name: p.name,
      description: p.name,
      previousProcessorId: i === 0 ? null : (procs[i - 1]?.id ?? null),
      propertiesSchema: p.propertiesSchema,
      properties: structuredClone(p.properties),
      patchAliases: aliasesOf(template, p.id),
      egress: { persist: false, sink: true, tags: [p.id, 'main'] },
    })),
    patchAliases: {},
  };
}
