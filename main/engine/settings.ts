// The settings model: one zod schema, the single source of defaults and of validation for every
// writer (CLI flags, IPC from the Settings screen, the settings file on disk). Sections default
// with `prefault({})`, which runs through the schema, so each default value is written once.
import { z } from 'zod';
import { CLAIM_TIMEOUT_LIMITS_S } from '../../common/defaults.js';
import { perService } from '../../common/service-names.js';
import { CAPTION_PRESET_NAMES } from '../../common/caption-presets.js';
import { DEFAULT_FORMATS, RESULT_FORMATS, type ResultFormat } from '../../common/formats.js';
import { DEFAULT_TEMPLATE_ID, isTemplateId, TEMPLATE_ID_RULE } from '../service/templates.js';
import { CAPTION_SETTINGS } from './captions/presets.js';
import { CUSTOM_RECIPES, isCustomRecipeId, RECIPE_REF } from './recipes/custom-recipes.js';
import { GLOSSARY_LIMITS } from './recipes/glossary.js';
import { TIMELINE_SETTINGS } from './timecode/timeline.js';
import { patternProblem } from './result-place.js';
import { DEFAULT_NETWORK_SETTLE_MS, DEFAULT_SETTLE_MS } from './settle.js';
import { MARKER_SOURCES_SETTING } from './captions/editors/marker-sources.js';

export const PARAM_VALUE = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type ParamValue = z.infer<typeof PARAM_VALUE>;
export const PARAMS = z.record(z.string().min(1).max(200), PARAM_VALUE);
export type Params = z.infer<typeof PARAMS>;

// Formats a job can produce: the table in common/formats.ts.
export { RESULT_FORMATS, type ResultFormat };

const httpUrl = z
  .string()
  .url('must be a URL such as https://example.org')
  .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://');

const templateId = z.string().refine(isTemplateId, `must be a template id: ${TEMPLATE_ID_RULE}`);

/** An ISO 4217 code (upper case) that Intl knows: which of them the service prices in is its to say. */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && Intl.supportedValuesOf('currency').includes(code);
}

export const CONNECTION = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('sandbox') }),
  z.object({ mode: z.literal('production'), auth: z.enum(['apiKey', 'clientCredentials']).default('apiKey') }),
  z.object({
    mode: z.literal('custom'),
    auth: z.enum(['apiKey', 'clientCredentials']).default('apiKey'),
    /** One origin for every service, as the sandbox serves them... */
    baseUrl: httpUrl.optional(),
    /** ...or one per service; a per-service URL wins over baseUrl. */
    urls: z.object(perService(httpUrl.optional())).default({}),
  }),
]);
export type Connection = z.infer<typeof CONNECTION>;

export const OUTPUT = z.object({
  // As the README and the empty Queue promise: the transcript, captions for players, and plain text.
  formats: z
    .array(z.enum(RESULT_FORMATS))
    .min(1)
    .default([...DEFAULT_FORMATS]),
  /** Name pattern without extension; tokens {name} {ext} {template} {date}; `/` makes subfolders (result-place.ts). */
  pattern: z
    .string()
    .min(1)
    .max(200)
    .superRefine((p, ctx) => {
      const problem = patternProblem(p);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .default('{name}'),
  languageSuffix: z
    .string()
    .regex(/^[a-z]{2,3}$/)
    .nullable()
    .default(null),
  /** `[00:01:23]` before each paragraph of the .txt transcript. */
  txtTimestamps: z.boolean().default(false),
  /** Layout of the SRT and VTT captions (presets.ts). */
  captions: CAPTION_SETTINGS.prefault({}),
  /** More caption layouts, each written as `{name}.{preset}.srt` / `.vtt` beside the first. */
  moreCaptions: z
    .array(z.enum(CAPTION_PRESET_NAMES))
    .max(3)
    .transform((l) => [...new Set(l)])
    .optional(),
  /** Where the editor formats' timeline starts and the rate for media without one; absent: source, 25. */
  timeline: TIMELINE_SETTINGS.optional(),
  /** Which markers the editor formats carry; absent: paragraphs and the editor's own. */
  markers: MARKER_SOURCES_SETTING.optional(),
});
export type OutputSettings = z.infer<typeof OUTPUT>;
/** A job's output when nothing was chosen: every default of OUTPUT. */
export const DEFAULT_OUTPUT: OutputSettings = OUTPUT.parse({});

/** A built-in recipe's id or a saved custom recipe's (checked against `customRecipes` below). */
export const RECIPE = RECIPE_REF.nullable();
export const GLOSSARY = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(GLOSSARY_LIMITS.termLength)
      .regex(/^[^,]*$/, 'must not hold a comma'),
  )
  .max(GLOSSARY_LIMITS.terms);

export const POST_ACTION = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({
    kind: z.literal('move'),
    doneDir: z.string().min(1).max(100).default('done'),
    failedDir: z.string().min(1).max(100).default('failed'),
  }),
]);
export type PostAction = z.infer<typeof POST_ACTION>;

const CLAIM_TIMEOUT_WORDS = `Give whole seconds from ${CLAIM_TIMEOUT_LIMITS_S.min} to ${CLAIM_TIMEOUT_LIMITS_S.max} (24 hours).`;
export const CLAIM_TIMEOUT_S = z
  .number(CLAIM_TIMEOUT_WORDS)
  .int(CLAIM_TIMEOUT_WORDS)
  .min(CLAIM_TIMEOUT_LIMITS_S.min, CLAIM_TIMEOUT_WORDS)
  .max(CLAIM_TIMEOUT_LIMITS_S.max, CLAIM_TIMEOUT_WORDS);

export const WATCH_FOLDER = z.object({
  id: z.string().min(1).max(64),
  path: z.string().min(1),
  enabled: z.boolean().default(true),
  templateId: templateId.default(DEFAULT_TEMPLATE_ID),
  params: PARAMS.default({}),
  /** What the audio-intelligence layer is asked for (recipes.ts); absent or null: the transcript only. */
  recipe: RECIPE.optional(),
  /** Names and terms sent as the enhancement's vocabulary (recipes/glossary.ts). */
  glossary: GLOSSARY.optional(),
  include: z.array(z.string().min(1)).default([]),
  exclude: z.array(z.string().min(1)).default([]),
  recursive: z.boolean().default(true),
  output: OUTPUT.prefault({}),
  postAction: POST_ACTION.default({ kind: 'none' }),
  /**
   * Where the results go: absent or null, beside each source; else this folder, with the folders
   * below the watch folder made again inside it (a card backup stays as it was copied).
   */
  outputDir: z
    .string()
    .regex(/^(\/|[A-Za-z]:[\\/]|\\\\)/, 'must be a full folder path, such as /home/me/Transcripts')
    .nullable()
    .optional(),
  /** Camera-card and recorder rules (engine/card-rules.ts); absent = 'mix': proxies and a take's single inputs skipped. */
  cardRules: z.enum(['mix', 'tracks', 'off']).optional(),
  /** "Shared with other computers" (team mode, shared-folder.ts): claims on the share, one computer per file. */
  shared: z.boolean().optional(),
  /** Team mode: a claim not refreshed for this long (by the reader's own clock) is taken over. Default 600 s. */
  claimTimeoutS: CLAIM_TIMEOUT_S.optional(),
});
export type WatchFolder = z.infer<typeof WATCH_FOLDER>;

/** Said when the never-whole delay is out of range (Settings ▸ Processing shows it in minutes). */
const INCOMPLETE_AFTER_WORDS =
  'Give between 5 seconds and 24 hours (a few minutes suits most cards): how long a file may stay unchanged and not whole before it is reported.';

export const SETTINGS = z
  .object({
    connection: CONNECTION.default({ mode: 'sandbox' }),
    defaults: z
      .object({
        templateId: templateId.default(DEFAULT_TEMPLATE_ID),
        params: PARAMS.default({}),
        recipe: RECIPE.optional(),
        glossary: GLOSSARY.optional(),
        output: OUTPUT.prefault({}),
      })
      .prefault({}),
    queue: z
      .object({
        uploadConcurrency: z.number().int().min(1).max(16).default(2),
        maxStreamsInFlight: z.number().int().min(1).max(1000).default(50),
        pollMinMs: z.number().int().min(200).max(60_000).default(1000),
        pollMaxMs: z.number().int().min(1000).max(600_000).default(30_000),
        settleMs: z.number().int().min(0).max(600_000).default(DEFAULT_SETTLE_MS),
        /** For files whose container cannot show it is whole, on any drive (settle.ts). */
        networkSettleMs: z.number().int().min(0).max(600_000).default(DEFAULT_NETWORK_SETTLE_MS),
        rescanIntervalMs: z.number().int().min(1000).max(3_600_000).default(60_000),
        /** A media file unchanged this long and still not whole is said never to be whole (settled-memory.ts). */
        incompleteAfterMs: z
          .number()
          .int()
          .min(5_000, INCOMPLETE_AFTER_WORDS)
          .max(86_400_000, INCOMPLETE_AFTER_WORDS)
          .default(180_000),
        /** Content identity (renames, copies, files dropped twice): on by default, a fast fingerprint. */
        hashContent: z.boolean().default(true),
        /** Content identity from every byte (SHA-256 of the whole file) instead of the fingerprint. */
        fullHash: z.boolean().default(false),
      })
      .refine((q) => q.pollMinMs <= q.pollMaxMs, 'the shortest polling interval must not exceed the longest')
      .prefault({}),
    watchFolders: z.array(WATCH_FOLDER).default([]),
    links: z
      .object({
        /** Where the results of media links go; null = the user's Downloads folder. */
        resultsDir: z
          .string()
          .regex(/^(\/|[A-Za-z]:[\\/]|\\\\)/, 'must be a full folder path, such as /home/me/Transcripts')
          .nullable()
          .default(null),
        /** A watch folder whose output folder takes the links' results instead (common/link-destination.ts). */
        watchFolderId: z.string().min(1).max(64).nullable().optional(),
      })
      .prefault({}),
    spendingGuard: z
      .object({ enabled: z.boolean().default(false), monthlyCreditCap: z.number().positive().nullable().default(null) })
      .prefault({}),
    usage: z
      .object({
        /** The currency Usage shows amounts in (and `sluice usage` without --currency); null = credits. */
        currency: z
          .string()
          .refine(isCurrencyCode, 'must be an ISO 4217 currency code, such as USD, EUR or GBP')
          .nullable()
          .default(null),
      })
      .prefault({}),
    /** Built-in recipes copied and worded anew (recipes/custom-recipes.ts); absent: none. */
    customRecipes: CUSTOM_RECIPES.optional(),
  })
  // A custom recipe a folder or the defaults still name cannot go: what a folder sends never
  // changes behind its back. Deleting one means choosing another recipe there first.
  .superRefine((s, ctx) => {
    const saved = new Set((s.customRecipes ?? []).map((r) => r.id));
    const check = (recipe: string | null | undefined, path: PropertyKey[], where: string) => {
      if (isCustomRecipeId(recipe) && !saved.has(recipe)) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: `${where} uses the custom recipe "${recipe}", which is not saved: choose another recipe there first.`,
        });
      }
    };
    check(s.defaults.recipe, ['defaults', 'recipe'], 'The defaults for files added by hand');
    s.watchFolders.forEach((f, i) => check(f.recipe, ['watchFolders', i, 'recipe'], `The watch folder ${f.path}`));
  });
export type Settings = z.infer<typeof SETTINGS>;

export function defaultSettings(): Settings {
  return SETTINGS.parse({});
}

/** Human-readable list of what is wrong, one line per field ("queue.uploadConcurrency: ..."). */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`);
}
