// The built-in configuration templates (§11.1) and the parameters each accepts (§11.2, §11.3).
// Shared by the sandbox (to validate and apply patches), the engine (to send only accepted
// parameters) and the UI (to offer the right fields).

/** The processors of the templates Sluice ships; an account's templates may name others. */
export type ProcessorId = 'transcriber' | 'diarization' | 'llm' | 'echo' | 'transcoder';

export type ParamType = 'boolean' | 'number' | 'integer' | 'string' | 'enum' | 'language';

export interface ParamSpec<P extends string = ProcessorId> {
  name: string;
  label: string;
  type: ParamType;
  /** `language` may be repeated (several values: code switching among them). */
  repeatable?: boolean;
  values?: readonly string[];
  min?: number;
  max?: number;
  maxLength?: number;
  default?: string | number | boolean | null;
  /** Free text that may be long (prompts, schemas, vocabularies): sent in multipart. */
  longText?: boolean;
  /** Processor whose properties the parameter patches, and the path inside them. */
  processor: P;
  path: readonly string[];
  group: 'transcription' | 'diarization' | 'intelligence' | 'enhancement';
}

export interface TemplateSpec<P extends string = ProcessorId> {
  id: string;
  name: string;
  description: string;
  processors: readonly P[];
  diarizes: boolean;
  params: readonly ParamSpec<P>[];
  /** Sandbox-only templates are labelled as such and never offered for a production connection. */
  sandboxOnly?: boolean;
  /** Raw (bytes) results cannot be exported as JSON. */
  exportable: boolean;
  /** Listed by the account's configuration service and not one of the public templates (§13). */
  account?: boolean;
}

/** A template Sluice ships (its processors are the ones the sandbox can run). */
export type BuiltinTemplate = TemplateSpec<ProcessorId>;
/** Any template, an account's own included (its processors are whatever the service names). */
export type AnyTemplate = TemplateSpec<string>;
export type AnyParam = ParamSpec<string>;

export const TEMPLATE_IDS = {
  transcription: '668115d123bca7e3509723d4',
  diarization: '669fee048452492b62cfad39',
  romanian: '678e26e695f8f5742e8718f4',
  romanianDiarization: '678e375095f8f5742e8718f5',
  ping: '65f46430c6d8985974ff9c9d',
  transcode: '000000000000000000000001',
} as const;

export const DEFAULT_TEMPLATE_ID = TEMPLATE_IDS.transcription;

const INT32_MAX = 2_147_483_647;

/** §11.2: pre-recorded language codes (C29: the client offers this list). */
export const LANGUAGES: readonly string[] = (
  'en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur hr bg lt la mi ' +
  'ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si km sn yo so af oc ka be tg sd ' +
  'gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ha ba jw su'
).split(' ');

const p = (spec: ParamSpec<ProcessorId>): ParamSpec<ProcessorId> => spec;

const whisperParams = (withSplitStereo: boolean): ParamSpec<ProcessorId>[] => [
  p({
    name: 'language',
    label: 'Language',
    type: 'language',
    repeatable: true,
    values: LANGUAGES,
    processor: 'transcriber',
    path: ['language'],
    group: 'transcription',
  }),
  p({
    name: 'noSpeechThreshold',
    label: 'No-speech threshold',
    type: 'number',
    min: 0,
    max: 1,
    default: 0.5,
    processor: 'transcriber',
    path: ['noSpeechThreshold'],
    group: 'transcription',
  }),
  p({
    name: 'vad',
    label: 'Voice activity detection',
    type: 'boolean',
    default: true,
    processor: 'transcriber',
    path: ['vad'],
    group: 'transcription',
  }),
  ...(withSplitStereo ? [splitStereo] : []),
];

const splitStereo = p({
  name: 'splitStereo',
  label: 'Transcribe stereo channels separately',
  type: 'boolean',
  default: false,
  processor: 'transcriber',
  path: ['splitStereo'],
  group: 'transcription',
});

const romanianParams = (withSplitStereo: boolean): ParamSpec<ProcessorId>[] => [
  ...(
    [
      ['disfluencies', 'Keep disfluencies', false],
      ['punctuationCapitalization', 'Punctuation and capitals', true],
      ['numeralsConversion', 'Numbers as digits', true],
      ['findReplace', 'Apply find/replace expressions', true],
    ] as const
  ).map(([name, label, def]) =>
    p({ name, label, type: 'boolean', default: def, processor: 'transcriber', path: [name], group: 'transcription' }),
  ),
  ...(withSplitStereo ? [splitStereo] : []),
];

// int32 (§11.4) is the only upper bound the contract states; the automation node sends these only
// when > 0 (§11.2 [S]), and no value means "detect".
const diarizationParams: ParamSpec<ProcessorId>[] = (
  [
    ['speakersNumber', 'Number of speakers'],
    ['minSpeakersNumber', 'Minimum speakers'],
    ['maxSpeakersNumber', 'Maximum speakers'],
  ] as const
).map(([name, label]) =>
  p({
    name,
    label,
    type: 'integer',
    min: 1,
    max: INT32_MAX,
    processor: 'diarization',
    path: [name],
    group: 'diarization',
  }),
);

const askParams: ParamSpec<ProcessorId>[] = [0, 1, 2].flatMap((n) => [
  p({
    name: `ask${n}`,
    label: `Question ${n + 1}`,
    type: 'string',
    longText: true,
    processor: 'llm',
    path: ['askAnything', String(n), 'content'],
    group: 'intelligence',
  }),
  p({
    name: `ask${n}System`,
    label: `Question ${n + 1} system prompt`,
    type: 'string',
    longText: true,
    processor: 'llm',
    path: ['askAnything', String(n), 'systemPrompt'],
    group: 'intelligence',
  }),
  p({
    name: `ask${n}Id`,
    label: `Question ${n + 1} answer key`,
    type: 'string',
    maxLength: 64,
    processor: 'llm',
    path: ['askAnything', String(n), 'promptId'],
    group: 'intelligence',
  }),
  p({
    name: `ask${n}Format`,
    label: `Question ${n + 1}: answer format (advanced, as a JSON Schema)`,
    type: 'string',
    longText: true,
    processor: 'llm',
    path: ['askAnything', String(n), 'responseFormat', 'specification'],
    group: 'intelligence',
  }),
]);

const intelligenceParams: ParamSpec<ProcessorId>[] = [
  p({
    name: 'summary',
    label: 'Summary',
    type: 'boolean',
    default: false,
    processor: 'llm',
    path: ['summary', 'enabled'],
    group: 'intelligence',
  }),
  p({
    name: 'summaryLength',
    label: 'Summary length',
    type: 'enum',
    values: ['brief', 'detailed'],
    default: 'brief',
    processor: 'llm',
    path: ['summary', 'properties', 'length'],
    group: 'intelligence',
  }),
  p({
    name: 'summaryTone',
    label: 'Summary tone',
    type: 'enum',
    values: ['conversational', 'informative'],
    default: 'conversational',
    processor: 'llm',
    path: ['summary', 'properties', 'tone'],
    group: 'intelligence',
  }),
  p({
    name: 'summaryStructure',
    label: 'Summary structure',
    type: 'enum',
    values: ['paragraphs', 'bullet_points'],
    default: 'paragraphs',
    processor: 'llm',
    path: ['summary', 'properties', 'structure'],
    group: 'intelligence',
  }),
  p({
    name: 'sentimentAnalysis',
    label: 'Sentiment analysis',
    type: 'boolean',
    default: false,
    processor: 'llm',
    path: ['sentimentAnalysis', 'enabled'],
    group: 'intelligence',
  }),
  ...askParams,
  // Transcription enhancement (C28): sandbox choice places it in the llm processor's properties.
  p({
    name: 'enhancedTranscription',
    label: 'Enhanced transcription',
    type: 'boolean',
    default: false,
    processor: 'llm',
    path: ['enhancedTranscription', 'enabled'],
    group: 'enhancement',
  }),
  p({
    name: 'etModel',
    label: 'Enhancement model',
    type: 'enum',
    values: ['standard', 'enhanced'],
    default: 'standard',
    processor: 'llm',
    path: ['enhancedTranscription', 'model'],
    group: 'enhancement',
  }),
  p({
    name: 'etVocabulary',
    label: 'Vocabulary (comma-separated)',
    type: 'string',
    longText: true,
    processor: 'llm',
    path: ['enhancedTranscription', 'vocabulary'],
    group: 'enhancement',
  }),
  p({
    name: 'etSystemPrompt',
    label: 'Enhancement context',
    type: 'string',
    longText: true,
    processor: 'llm',
    path: ['enhancedTranscription', 'systemPrompt'],
    group: 'enhancement',
  }),
];

export const TEMPLATES: readonly BuiltinTemplate[] = [
  {
    id: TEMPLATE_IDS.transcription,
    name: 'Transcription',
    description: 'Pre-recorded transcription in any language, with summary, sentiment and questions.',
    processors: ['transcriber', 'llm'],
    diarizes: false,
    params: [...whisperParams(true), ...intelligenceParams],
    exportable: true,
  },
  {
    id: TEMPLATE_IDS.diarization,
    name: 'Transcription + speakers',
    description:
      'Pre-recorded transcription in any language with speaker diarization, summary, sentiment and questions.',
    processors: ['transcriber', 'diarization', 'llm'],
    diarizes: true,
    params: [...whisperParams(false), ...diarizationParams, ...intelligenceParams],
    exportable: true,
  },
  {
    id: TEMPLATE_IDS.romanian,
    name: 'Romanian transcription',
    description: 'Dedicated Romanian model, with summary, sentiment and questions.',
    processors: ['transcriber', 'llm'],
    diarizes: false,
    params: [...romanianParams(true), ...intelligenceParams],
    exportable: true,
  },
  {
    id: TEMPLATE_IDS.romanianDiarization,
    name: 'Romanian transcription + speakers',
    description: 'Dedicated Romanian model with speaker diarization, summary, sentiment and questions.',
    processors: ['transcriber', 'diarization', 'llm'],
    diarizes: true,
    params: [...romanianParams(false), ...diarizationParams, ...intelligenceParams],
    exportable: true,
  },
  {
    id: TEMPLATE_IDS.ping,
    name: 'Ping (echo)',
    description: 'Echo pipeline for latency tests; its raw result cannot be exported.',
    processors: ['echo'],
    diarizes: false,
    params: [],
    exportable: false,
  },
  {
    id: TEMPLATE_IDS.transcode,
    name: 'Transcoding (sandbox only)',
    description: 'Sandbox-only: decodes the media and reports its duration, without transcription.',
    processors: ['transcoder'],
    diarizes: false,
    params: [],
    sandboxOnly: true,
    exportable: true,
  },
];

/** A template Sluice ships, by id (the public ones of §11.1 and the sandbox-only one). */
export function findTemplate(id: string): BuiltinTemplate | undefined {
  return TEMPLATES.find((t) => t.id === id);
}

export function findParam<P extends string>(template: TemplateSpec<P>, name: string): ParamSpec<P> | undefined {
  return template.params.find((x) => x.name === name);
}

/**
 * True when `id` can name a template. The public ids are 24 lowercase hex characters (§3), but an
 * account's own templates are named by the service (§13 lists them), so any id that travels safely
 * in a path segment and a query value is accepted; whether it exists is the service's call.
 */
export function isTemplateId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id);
}

export const TEMPLATE_ID_RULE = 'letters, digits, ".", "_" or "-" (at most 128), such as 668115d123bca7e3509723d4';
