// What every command that talks to the service shares: connection and state-dir options, and
// opening the runtime with the API key from SLUICE_API_KEY or the OS keychain.
import { Option, type Command } from 'commander';
import { BUILTIN_CATALOGUE, catalogueTemplate, type TemplateCatalogue } from '../service/template-catalogue.js';
import type { ServiceName } from '../service/policy.js';
import { keytarStore, type SecretStore } from '../adapters/store/secrets/keychain.js';
import { setAsideNotice } from '../adapters/store/state/settings-store.js';
import { defaultStateDir, resolveStateDir } from '../adapters/store/state/state-dir.js';
import { parseParamPairs, templateProblems, uncheckedNotice } from '../engine/params.js';
import {
  RESULT_FORMATS,
  type OutputSettings,
  type Params,
  type ResultFormat,
  type Settings,
} from '../engine/settings.js';
import { Runtime, type RuntimeOptions } from '../runtime/runtime.js';
import {
  parseFormats,
  parseFrameRate,
  parseGlossaryFile,
  parsePositiveInt,
  parseRecipe,
  parseTimecodeStart,
} from './options.js';
import { manualAdd } from '../engine/manual-add.js';
import { printable } from './printable.js';
import { RECIPE_IDS, type RecipeRef } from '../engine/recipes/recipes.js';
import { findRecipeRef } from '../engine/recipes/custom-recipes.js';
import { RATE_IDS, type RateId } from '../engine/timecode/rates.js';
import { TIMECODED_FORMATS } from '../../common/formats.js';
import { DEFAULT_TIMELINE } from '../engine/timecode/timeline.js';

export interface CommonFlags {
  stateDir?: string;
  baseUrl?: string;
  gatewayUrl?: string;
  streamUrl?: string;
  exportUrl?: string;
  usageUrl?: string;
  configurationUrl?: string;
  authUrl?: string;
  sandbox?: boolean;
  json?: boolean;
}

export interface JobFlags extends CommonFlags {
  template?: string;
  param: string[];
  concurrency?: number;
  formats?: ResultFormat[];
  /** `none`: no recipe even when Settings has a default one. */
  /** A recipe's id or a custom recipe's name (any case), resolved against the settings. */
  recipe?: string;
  /** Terms read from --glossary FILE. */
  glossary?: string[];
  /** `source` or `HH:MM:SS:FF`: where the editor formats' timeline starts. */
  timecode?: string;
  frameRate?: RateId;
}

// The app-data folder, shared with the desktop app (one resolver for both).
export { defaultStateDir };

export function stateDirOf(flags: CommonFlags): string {
  return resolveStateDir(flags.stateDir);
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function addCommonOptions(cmd: Command): Command {
  return cmd
    .option('--state-dir <dir>', 'where Sluice keeps its settings, journal and exports (default: the app-data folder)')
    .option('--base-url <url>', 'one origin serving all four services (as the sandbox does)')
    .option('--gateway-url <url>', 'upload gateway origin')
    .option('--stream-url <url>', 'stream service origin')
    .option('--export-url <url>', 'export service origin')
    .option('--usage-url <url>', 'usage service origin')
    .option('--configuration-url <url>', 'configuration service origin (the account’s templates)')
    .option('--auth-url <url>', 'token endpoint origin, for SLUICE_CLIENT_ID + SLUICE_CLIENT_SECRET')
    .option('--sandbox', 'start the embedded sandbox and use it (simulated results)')
    .option('--json', 'machine-readable output');
}

export function addJobOptions(cmd: Command): Command {
  return addCommonOptions(cmd)
    .option('--template <id>', 'configuration template id (default: from settings)')
    .addOption(
      new Option('--param <key=value>', 'template parameter; repeatable (language may repeat)')
        .argParser((v: string, prev: string[]) => [...prev, v])
        .default([]),
    )
    .option('--concurrency <n>', 'simultaneous uploads', parsePositiveInt)
    .option(
      '--recipe <name>',
      `what to ask for beside the transcript: ${RECIPE_IDS.join(', ')}, a custom recipe's name, or none (default: from settings)`,
      parseRecipe,
    )
    .option(
      '--glossary <file>',
      'names and terms to spell right, one per line (text or CSV): sent as the vocabulary (default: from settings)',
      parseGlossaryFile,
    )
    .option(
      '--formats <list>',
      `result formats, comma-separated: ${RESULT_FORMATS.join(', ')} (the JSON is always kept)`,
      parseFormats,
    )
    .option(
      '--timecode <start>',
      `where the editor formats (${TIMECODED_FORMATS.join(', ')}) start: source (the media’s own timecode) or HH:MM:SS:FF`,
      parseTimecodeStart,
    )
    .option(
      '--frame-rate <rate>',
      `frame rate for media without one of its own: ${RATE_IDS.join(', ')} (default 25)`,
      parseFrameRate,
    );
}

/** A keychain that never throws: a missing or locked keychain is reported once and treated as empty. */
function quietSecrets(warn: (m: string) => void): SecretStore {
  const inner = keytarStore();
  let warned = false;
  return {
    kind: inner.kind,
    get: async (name) => {
      try {
        return await inner.get(name);
      } catch (e) {
        if (!warned) warn(`Keychain: ${(e as Error).message}`);
        warned = true;
        return null;
      }
    },
    set: (n, v) => inner.set(n, v),
    delete: (n) => inner.delete(n),
  };
}

/** The per-service origins given on the command line (`--gateway-url` …), the ones given only. */
export function serviceUrlFlags(flags: CommonFlags): Partial<Record<ServiceName, string>> {
  const given: Record<ServiceName, string | undefined> = {
    gateway: flags.gatewayUrl,
    stream: flags.streamUrl,
    export: flags.exportUrl,
    usage: flags.usageUrl,
    configuration: flags.configurationUrl,
    auth: flags.authUrl,
  };
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
}

export async function openRuntime(
  flags: CommonFlags & { concurrency?: number },
  extra: Partial<RuntimeOptions> = {},
): Promise<Runtime> {
  const urls = serviceUrlFlags(flags);
  const runtime = await Runtime.open({
    stateDir: stateDirOf(flags),
    connection: {
      ...(flags.sandbox ? { sandbox: true } : {}),
      ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      urls,
    },
    secrets: quietSecrets((m) => console.error(m)),
    ...(flags.concurrency ? { concurrency: flags.concurrency } : {}),
    ...extra,
  });
  // Said even with --json (on stderr): the person must learn their settings were set aside.
  const setAside = runtime.settings.setAside;
  if (setAside) console.error(`settings: ${printable(setAsideNotice(setAside))}`);
  if (runtime.connection.simulated && !flags.json) {
    console.error(`Using the ${runtime.connection.label}. Add an API key to process for real.`);
  }
  return runtime;
}

/** --formats on top of the saved default output settings. */
export function outputOf(flags: JobFlags, settings: Settings): OutputSettings {
  const saved = settings.defaults.output;
  const timeline =
    flags.timecode || flags.frameRate
      ? {
          start: flags.timecode ?? saved.timeline?.start ?? DEFAULT_TIMELINE.start,
          defaultRate: flags.frameRate ?? saved.timeline?.defaultRate ?? DEFAULT_TIMELINE.defaultRate,
        }
      : saved.timeline;
  return {
    ...saved,
    ...(flags.formats ? { formats: flags.formats } : {}),
    ...(timeline ? { timeline } : {}),
  };
}

/** `--recipe NAME`: a built-in id, or a saved custom recipe's name (any case) or id. */
function cliRecipe(name: string, settings: Settings): RecipeRef {
  const found = findRecipeRef(name, settings.customRecipes);
  if (found) return found;
  const custom = (settings.customRecipes ?? []).map((r) => `"${r.name}"`);
  throw new UsageError(
    `--recipe: must be one of ${[...RECIPE_IDS, ...custom].join(', ')} or none (got ${printable(name)}).`,
  );
}

/**
 * --template and --param, checked against the template (by the engine, with the account's
 * catalogue) before anything is sent; `notice` says when the template's parameters go unchecked.
 */
export function templateAndParams(
  flags: JobFlags,
  settings: Settings,
  catalogue: TemplateCatalogue = BUILTIN_CATALOGUE,
): { templateId: string; params: Params; recipe: RecipeRef | null; glossary: string[]; notice?: string } {
  const given = {
    templateId: flags.template,
    recipe: flags.recipe === 'none' ? null : flags.recipe ? cliRecipe(flags.recipe, settings) : undefined,
    glossary: flags.glossary,
  };
  let add = manualAdd(settings, given);
  // --param is read against the template the add uses, the given one or the default.
  try {
    if (flags.param.length > 0)
      add = manualAdd(settings, {
        ...given,
        params: parseParamPairs(flags.param, catalogueTemplate(catalogue, add.templateId)),
      });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { templateId, params, recipe, glossary } = add;
  if (add.problems.length > 0) throw new UsageError(add.problems.join('\n'));
  const problems = templateProblems(templateId, add.sent, catalogue);
  if (problems[0]?.field === 'templateId') {
    throw new UsageError(`${problems[0].message} Run \`sluice templates\` to list them.`);
  }
  if (problems.length > 0) throw new UsageError(problems.map((p) => p.message).join('\n'));
  const notice = uncheckedNotice(templateId, catalogue);
  return { templateId, params, recipe, glossary, ...(notice ? { notice } : {}) };
}
