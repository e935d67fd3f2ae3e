// One strict schema per request channel: whatever crosses the bridge is parsed here before any
// handler sees it. The mapped type makes the compiler ask for a schema when a channel is added to
// the contract. Schemas check shape and size; whether a value is *acceptable* (a poll interval in
// range, a folder that exists) is the settings schema's and the handlers' job, so a person gets a
// VALIDATION error next to the field rather than INVALID_PARAMS.
import { z } from 'zod';
import { perService } from '../../common/service-names.js';
import type { CHANNELS, Channel, ParamsOf } from '../../preload/contract.js';
import { JOB_STATES } from '../engine/job.js';
import { DEFAULT_CAPTIONS } from '../engine/captions/presets.js';
import { CLAIM_TIMEOUT_S, GLOSSARY, RECIPE, RESULT_FORMATS } from '../engine/settings.js';
import { RATE_IDS } from '../engine/timecode/rates.js';
import { MARKER_EDITS } from '../engine/transcript/markers.js';
import { CUSTOM_RECIPES } from '../engine/recipes/custom-recipes.js';
import { OUTLINE_EDITS } from '../engine/recipes/outline-edit.js';
import { USER_MARKER_COLOURS } from '../../common/marker-colours.js';
import { CAPTION_PRESET_IDS, CAPTION_PRESET_NAMES } from '../../common/caption-presets.js';
import { MAX_STRING_OUT_HANDLES, STRING_OUT_FORMATS } from '../../common/string-out-formats.js';
import { SELECT_WIDENINGS } from '../../common/select-sources.js';
import { MARKER_SOURCES_SETTING } from '../engine/captions/editors/marker-sources.js';

const str = (max = 4096) => z.string().max(max);
const id = z.string().min(1).max(200);
const none = z.strictObject({});
/** Where a link's results go (common/link-destination.ts); a typed folder is checked on disk by the handler. */
const linkDestination = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('downloads') }),
  z.strictObject({ kind: z.literal('watch-folder'), folderId: z.string().min(1).max(64) }),
  z.strictObject({ kind: z.literal('folder'), path: z.string().min(1).max(4096) }),
]);
const byId = z.strictObject({ id });
const byJob = z.strictObject({ jobId: id });
const wordIndex = z.number().int().min(0).max(10_000_000);
// A spacer's length: any number here; its limits are the engine's rule (spacers.ts), refused with its words.
const spacerMs = z
  .number()
  .finite()
  .min(0)
  .max(24 * 3600 * 1000);
// Whether a name can name a list (and its files) is the selects' own rule: VALIDATION from the handler.
const listName = z.string().max(1000);

const paramValue = z.union([str(100_000), z.number(), z.boolean(), z.array(str(1000)).max(100)]);
const params = z.record(str(200), paramValue);
const stringList = (max = 1000) => z.array(str(1000)).max(max);

const jobState = z.enum(JOB_STATES);
const resultFormat = z.enum(RESULT_FORMATS);
const recipe = RECIPE;
const auth = z.enum(['apiKey', 'clientCredentials']);
const url = str(2000);
const num = z.number();

const connection = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('sandbox') }),
  z.strictObject({ mode: z.literal('production'), auth }),
  z.strictObject({
    mode: z.literal('custom'),
    auth,
    baseUrl: url.optional(),
    urls: z.strictObject(perService(url.optional())),
  }),
]);

const captions = z.strictObject({
  preset: z.enum(CAPTION_PRESET_IDS),
  charsPerLine: num,
  lines: num,
  minDurationMs: num,
  maxDurationMs: num,
  minGapMs: num,
  speakerLabels: z.boolean(),
});
const captionPreset = z.enum(CAPTION_PRESET_NAMES);
const moreCaptions = z.array(captionPreset).max(3);
// Written before caption presets existed (or by a caller that leaves them alone): the default preset.
const captionsOrDefault = captions.default({ ...DEFAULT_CAPTIONS });

// The editor formats' timeline: the start's form is checked again by the settings schema.
const timeline = z.strictObject({ start: str(20), defaultRate: z.enum(RATE_IDS) });

const outputPatch = z.strictObject({
  formats: z.array(resultFormat).max(RESULT_FORMATS.length).optional(),
  pattern: str(1000).optional(),
  languageSuffix: str(20).nullable().optional(),
  txtTimestamps: z.boolean().optional(),
  captions: captions.optional(),
  moreCaptions: moreCaptions.optional(),
  timeline: timeline.optional(),
  markers: MARKER_SOURCES_SETTING.optional(),
});

const postAction = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({ kind: z.literal('move'), doneDir: str(1000), failedDir: str(1000) }),
]);

const folderFields = {
  path: str(),
  enabled: z.boolean().optional(),
  templateId: str(100).optional(),
  params: params.optional(),
  recipe: recipe.optional(),
  glossary: GLOSSARY.optional(),
  include: stringList().optional(),
  exclude: stringList().optional(),
  recursive: z.boolean().optional(),
  output: z
    .strictObject({
      formats: z.array(resultFormat).max(RESULT_FORMATS.length),
      pattern: str(1000),
      languageSuffix: str(20).nullable(),
      txtTimestamps: z.boolean(),
      captions: captionsOrDefault,
      moreCaptions: moreCaptions.optional(),
      timeline: timeline.optional(),
      markers: MARKER_SOURCES_SETTING.optional(),
    })
    .optional(),
  postAction: postAction.optional(),
  shared: z.boolean().optional(),
  claimTimeoutS: CLAIM_TIMEOUT_S.optional(),
  cardRules: z.enum(['mix', 'tracks', 'off']).optional(),
  outputDir: str().nullable().optional(),
};
const folderInput = z.strictObject(folderFields);
const folderPatch = z.strictObject({ ...folderFields, path: str().optional() });
const fullFolder = z.strictObject({
  id,
  path: str(),
  enabled: z.boolean(),
  templateId: str(100),
  params,
  recipe: recipe.optional(),
  glossary: GLOSSARY.optional(),
  include: stringList(),
  exclude: stringList(),
  recursive: z.boolean(),
  output: folderFields.output.unwrap(),
  postAction,
  cardRules: z.enum(['mix', 'tracks', 'off']).optional(),
  shared: z.boolean().optional(),
  claimTimeoutS: CLAIM_TIMEOUT_S.optional(),
  outputDir: str().nullable().optional(),
});

const settingsPatch = z.strictObject({
  connection: connection.optional(),
  defaults: z
    .strictObject({
      templateId: str(100).optional(),
      params: params.optional(),
      recipe: recipe.optional(),
      glossary: GLOSSARY.optional(),
      output: outputPatch.optional(),
    })
    .optional(),
  queue: z
    .strictObject({
      uploadConcurrency: num.optional(),
      maxStreamsInFlight: num.optional(),
      pollMinMs: num.optional(),
      pollMaxMs: num.optional(),
      settleMs: num.optional(),
      networkSettleMs: num.optional(),
      rescanIntervalMs: num.optional(),
      incompleteAfterMs: num.optional(),
      hashContent: z.boolean().optional(),
      fullHash: z.boolean().optional(),
    })
    .optional(),
  watchFolders: z.array(fullFolder).max(1000).optional(),
  links: z
    .strictObject({ resultsDir: str().nullable().optional(), watchFolderId: str(64).nullable().optional() })
    .optional(),
  spendingGuard: z
    .strictObject({ enabled: z.boolean().optional(), monthlyCreditCap: num.nullable().optional() })
    .optional(),
  usage: z.strictObject({ currency: str(16).nullable().optional() }).optional(),
  // The whole list, as arrays replace: its limits and names are checked by the settings schema.
  customRecipes: CUSTOM_RECIPES.optional(),
});

const usageQuery = z.strictObject({
  start: str(64).optional(),
  end: str(64).optional(),
  granularity: z.enum(['HOURS', 'DAYS', 'MONTHS']).optional(),
  currency: str(16).optional(),
});

const historyQuery = z.strictObject({
  search: str(500).optional(),
  states: z.array(jobState).max(8).optional(),
  templateIds: stringList(100).optional(),
  folderIds: stringList(1000).optional(),
  computers: stringList(100).optional(),
  from: num.optional(),
  to: num.optional(),
  sort: z
    .strictObject({
      by: z.enum(['created', 'completed', 'name', 'state', 'size', 'computer']),
      dir: z.enum(['asc', 'desc']),
    })
    .optional(),
  page: z.number().int().min(0).max(1_000_000).optional(),
  pageSize: z.number().int().min(1).max(500).optional(),
  includeExternal: z.boolean().optional(),
  refresh: z.boolean().optional(),
});

export type Schemas = { [C in Channel]: z.ZodType<ParamsOf<C>> };

export const SCHEMAS: Schemas = {
  'app:info': none,
  'app:ready': none,
  'app:setStartAtLogin': z.strictObject({ enabled: z.boolean() }),
  'queue:snapshot': none,
  'queue:add': z.strictObject({
    paths: z.array(str()).min(1).max(10_000),
    templateId: str(100).optional(),
    params: params.optional(),
    force: z.boolean().optional(),
  }),
  'queue:addLinks': z.strictObject({
    links: z.array(str(4096)).min(1).max(1000),
    templateId: str(100).optional(),
    params: params.optional(),
    force: z.boolean().optional(),
    destination: linkDestination.optional(),
  }),
  'queue:linkDestinations': none,
  'queue:pickFiles': none,
  'queue:pause': none,
  'queue:resume': none,
  'queue:stopAfterCurrent': none,
  'queue:cancel': byId,
  'queue:retry': byId,
  'queue:retryFailed': none,
  'queue:move': z.strictObject({ id, direction: z.enum(['up', 'down', 'top', 'bottom']) }),
  'queue:dismiss': byId,
  'queue:dismissFinished': none,
  'queue:rewrite': z.strictObject({
    id,
    captionPreset: captionPreset.optional(),
    replaceCaptions: z.boolean().optional(),
  }),
  'queue:components': byId,
  'result:open': z.strictObject({ jobId: id, format: resultFormat }),
  'result:reveal': z.strictObject({ jobId: id, format: resultFormat }),
  'source:reveal': z.strictObject({ jobId: id }),
  'settings:get': none,
  'settings:update': z.strictObject({ patch: settingsPatch }),
  'settings:setApiKey': z.strictObject({ apiKey: z.string().trim().min(1).max(4096) }),
  'settings:clearApiKey': none,
  'settings:setClientCredentials': z.strictObject({
    clientId: z.string().trim().min(1).max(1000),
    clientSecret: z.string().min(1).max(4096),
  }),
  'settings:useSessionKey': z.strictObject({ apiKey: z.string().trim().min(1).max(4096) }),
  'settings:testConnection': z.strictObject({
    apiKey: z.string().trim().min(1).max(4096).optional(),
    connection: connection.optional(),
  }),
  'folders:pick': none,
  'folders:add': z.strictObject({ folder: folderInput }),
  'folders:update': z.strictObject({ id, patch: folderPatch }),
  'folders:remove': byId,
  'folders:pause': byId,
  'folders:resume': byId,
  'folders:rescan': z.strictObject({ id: id.optional() }),
  'folders:statuses': none,
  'folders:retrySkipped': z.strictObject({ folderId: id, id }),
  'folders:ignoreSkipped': z.strictObject({ folderId: id, id }),
  'folders:unignoreSkipped': z.strictObject({ folderId: id, id }),
  'folders:fileSystem': z.strictObject({ path: z.string().trim().min(1).max(4096) }),
  'templates:list': z.strictObject({ refresh: z.boolean().optional() }),
  'templates:check': z.strictObject({ templateId: str(200), params }),
  'recipes:list': none,
  // A glossary file of a few thousand terms is tens of kilobytes; a megabyte is no glossary.
  'recipes:parseGlossary': z.strictObject({ text: z.string().max(1_000_000) }),
  'history:list': historyQuery,
  'history:cancelStream': z.strictObject({ streamId: id }),
  'history:components': z.strictObject({ streamId: id }),
  'history:rerun': z.strictObject({
    jobId: id,
    templateId: str(200).optional(),
    params: params.optional(),
    language: z
      .array(z.string().regex(/^[a-z]{2,3}$/))
      .max(200)
      .optional(),
  }),
  'history:reviewWork': z.strictObject({ jobId: id }),
  'history:reexport': z.union([
    z.strictObject({
      jobId: id,
      formats: z.array(resultFormat).min(1).max(RESULT_FORMATS.length).optional(),
      captionPreset: captionPreset.optional(),
      replaceCaptions: z.boolean().optional(),
    }),
    z.strictObject({ streamId: id }),
  ]),
  'usage:report': usageQuery,
  'usage:csv': usageQuery,
  'usage:stream': z.strictObject({ streamId: id }),
  'usage:currencies': none,
  'transcript:open': byJob,
  'transcript:edit': z.strictObject({
    jobId: id,
    revision: z.number().int().min(0),
    edit: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('replace'), from: wordIndex, to: wordIndex, text: str(10_000) }),
      z.strictObject({ kind: z.literal('renameSpeaker'), speaker: id, name: str(1000) }),
      z.strictObject({ kind: z.literal('setSpeaker'), from: wordIndex, to: wordIndex, speaker: id }),
      ...MARKER_EDITS.map((m) => m.strict()),
      ...OUTLINE_EDITS.map((m) => m.strict()),
      z.strictObject({
        kind: z.literal('replaceMany'),
        replacements: z
          .array(z.strictObject({ from: wordIndex, to: wordIndex, text: str(10_000) }))
          .min(1)
          .max(100_000),
      }),
    ]),
  }),
  'transcript:undo': byJob,
  'transcript:redo': byJob,
  'transcript:revert': byJob,
  'transcript:overwriteHeld': byJob,
  'selects:lists': none,
  'selects:open': z.strictObject({ list: listName }),
  'selects:add': z.strictObject({ list: listName, jobId: id, from: wordIndex, to: wordIndex }),
  'selects:addFrom': z.strictObject({
    list: listName,
    jobId: id,
    from: z.discriminatedUnion('kind', [
      z.strictObject({
        kind: z.literal('moment'),
        ms: z
          .number()
          .min(0)
          .max(48 * 3600 * 1000),
        widen: z.enum(SELECT_WIDENINGS),
      }),
      z.strictObject({ kind: z.literal('marker'), id }),
      z.strictObject({ kind: z.literal('chapter'), id }),
      z.strictObject({ kind: z.literal('quote'), id }),
    ]),
  }),
  'selects:edit': z.strictObject({
    list: listName,
    edit: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('remove'), id }),
      z.strictObject({ kind: z.literal('restore'), id, index: wordIndex }),
      z.strictObject({ kind: z.literal('move'), id, index: wordIndex }),
      z.strictObject({
        kind: z.literal('trim'),
        id,
        end: z.enum(['in', 'out']),
        words: z.number().int().min(-10_000).max(10_000),
      }),
      z.strictObject({ kind: z.literal('relabel'), id, label: str(1000) }),
      z.strictObject({ kind: z.literal('recolour'), id, colour: z.enum(USER_MARKER_COLOURS) }),
      z.strictObject({ kind: z.literal('renote'), id, note: str(10_000) }),
      z.strictObject({ kind: z.literal('addGap'), ms: spacerMs, after: id.optional() }),
      z.strictObject({ kind: z.literal('addTitle'), text: str(10_000), ms: spacerMs, after: id.optional() }),
      z.strictObject({ kind: z.literal('respace'), id, ms: spacerMs }),
    ]),
  }),
  'selects:export': z.strictObject({
    list: listName,
    formats: z.array(z.enum(STRING_OUT_FORMATS)).min(1).max(STRING_OUT_FORMATS.length),
    folder: str(4096).optional(),
    timecode: str(20).optional(),
    handles: z.number().int().min(0).max(MAX_STRING_OUT_HANDLES).optional(),
  }),
};

// The constant list and the contract's map must name the same channels (both directions).
type Missing = Exclude<Channel, (typeof CHANNELS)[number]>;
const _everyChannelListed: [Missing] extends [never] ? true : Missing = true;
void _everyChannelListed;

export function isChannel(name: string): name is Channel {
  return Object.hasOwn(SCHEMAS, name);
}

/** Parses a payload for `channel`; absent params count as `{}`. Throws the ZodError. */
export function parseParams<C extends Channel>(channel: C, raw: unknown): ParamsOf<C> {
  return SCHEMAS[channel].parse(raw === undefined || raw === null ? {} : raw);
}
