// settings:* handlers. Secrets go into the platform's vault and never come back out: the view
// carries only whether a key is set and its last four characters.
import {
  API_KEY_ENV,
  type Channel,
  type CredentialsView,
  type SettingsPatch,
  type SettingsView,
} from '../../preload/contract.js';
import { ServiceError } from '../service/errors.js';
import { KeychainError, type SecretName } from '../adapters/store/secrets/keychain.js';
import { SETTINGS, type Settings } from '../engine/settings.js';
import { recipeParams } from '../engine/recipes/recipe-params.js';
import { catalogueTemplate, type TemplateCatalogue } from '../service/template-catalogue.js';
import { findParam } from '../service/templates.js';
import { fieldErrors, validation } from './errors.js';
import { appInfo, checkTemplate, type HandlerContext, type RawHandlers } from './handler-context.js';
import { maskSecret, toSettingsView } from './views.js';

type SettingsChannels = Extract<Channel, `settings:${string}`>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Objects merge key by key; arrays, the connection and every other value replace. */
function mergeSettings(current: Settings, patch: SettingsPatch): unknown {
  const merge = (base: unknown, over: unknown, key: string): unknown => {
    if (key === 'connection' || !isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
    const out: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(over)) if (v !== undefined) out[k] = merge(base[k], v, k);
    return out;
  };
  return merge(current, patch, '');
}

/** The template check of what a job will send: its parameters with its recipe's. */
function checkRecipe(
  catalogue: TemplateCatalogue,
  o: Pick<Settings['defaults'], 'templateId' | 'params' | 'recipe' | 'glossary'>,
  at: string,
  custom: Settings['customRecipes'],
): void {
  const recipe = recipeParams(o.params, o.recipe, [], custom);
  if (recipe.problems.length > 0) {
    throw validation(recipe.problems.map((message) => ({ path: `${at}recipe`, message })));
  }
  const glossary = o.glossary ?? [];
  const template = catalogueTemplate(catalogue, o.templateId);
  if (glossary.length > 0 && template && !findParam(template, 'etVocabulary')) {
    const message = `The template "${template.name}" takes no vocabulary, so the glossary cannot be sent: choose a transcription template, or empty the glossary.`;
    throw validation([{ path: `${at}glossary`, message }]);
  }
  const r = recipeParams(o.params, o.recipe, glossary, custom);
  if (r.problems.length > 0) throw validation(r.problems.map((message) => ({ path: `${at}glossary`, message })));
  checkTemplate(catalogue, o.templateId, r.params, at);
}

/** Validates a whole candidate; throws VALIDATION with every field's problem, saving nothing. */
export function validateSettings(candidate: unknown, catalogue: TemplateCatalogue): Settings {
  const parsed = SETTINGS.safeParse(candidate);
  if (!parsed.success) throw validation(fieldErrors(parsed.error));
  const s = parsed.data;
  checkRecipe(catalogue, s.defaults, 'defaults.', s.customRecipes);
  const seen = new Set<string>();
  s.watchFolders.forEach((f, i) => {
    if (seen.has(f.id))
      throw validation([{ path: `watchFolders.${i}.id`, message: 'Two watch folders have this id.' }]);
    seen.add(f.id);
    checkRecipe(catalogue, f, `watchFolders.${i}.`, s.customRecipes);
  });
  return s;
}

export function settingsHandlers(
  ctx: HandlerContext<'connection' | 'settings' | 'templates' | 'updateSettings'>,
): RawHandlers<SettingsChannels> & {
  /** Publishes `settings:changed` with the current view and answers that view. */
  changed(problem?: string): Promise<SettingsView>;
} {
  const { connection, settings, templates, platform } = ctx;
  const vault = platform.secrets;

  /** The last four characters of the key used until Sluice quits; the key itself stays in the runtime. */
  let sessionMasked: string | undefined;

  const credentials = async (): Promise<CredentialsView> => {
    const status = await vault.status();
    const env = process.env;
    const view: CredentialsView = { apiKey: 'unset', secretStore: status.store };
    if (status.problem) view.problem = status.problem;
    if (connection.hasSessionKey) {
      return { ...view, apiKey: 'set', ...(sessionMasked ? { masked: sessionMasked } : {}), sessionKey: true };
    }
    if (env[API_KEY_ENV]) {
      return { ...view, apiKey: 'set', masked: maskSecret(env[API_KEY_ENV]), fromEnvironment: true };
    }
    if (status.store === 'unavailable') return view;
    try {
      const [key, id, secret] = await Promise.all([
        vault.get('api-key'),
        vault.get('client-id'),
        vault.get('client-secret'),
      ]);
      if (key) Object.assign(view, { apiKey: 'set', masked: maskSecret(key) });
      if (id) view.clientId = id;
      view.clientSecret = secret ? 'set' : 'unset';
    } catch (e) {
      view.problem = e instanceof KeychainError ? e.message : String(e);
    }
    return view;
  };

  const view = async (problem?: string): Promise<SettingsView> => {
    const creds = await credentials();
    if (problem) creds.problem = problem;
    return toSettingsView(settings.get(), creds, platform.startAtLogin?.get());
  };

  /** Uses the new connection or key at once; a failure is shown on the Settings screen, not thrown. */
  const reconnect = async (): Promise<string | undefined> => {
    try {
      await connection.reconnect();
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
    ctx.publish({ name: 'connection:changed', payload: appInfo(connection, platform, settings) });
    return undefined;
  };

  const changed = async (problem?: string): Promise<SettingsView> => {
    const v = await view(problem);
    ctx.publish({ name: 'settings:changed', payload: v });
    return v;
  };

  const storeSecrets = async (entries: Array<[SecretName, string]>): Promise<SettingsView> => {
    for (const [name, value] of entries) await vault.set(name, value);
    const problem = settings.get().connection.mode === 'sandbox' ? undefined : await reconnect();
    return changed(problem);
  };

  return {
    changed,
    'settings:get': () => view(),
    'settings:update': async ({ patch }) => {
      const before = settings.get();
      const next = validateSettings(mergeSettings(before, patch), templates.current);
      await ctx.updateSettings(() => next);
      const connectionChanged = JSON.stringify(before.connection) !== JSON.stringify(next.connection);
      return changed(connectionChanged ? await reconnect() : undefined);
    },
    'settings:setApiKey': ({ apiKey }) => storeSecrets([['api-key', apiKey]]),
    'settings:setClientCredentials': ({ clientId, clientSecret }) =>
      storeSecrets([
        ['client-id', clientId],
        ['client-secret', clientSecret],
      ]),
    'settings:useSessionKey': async ({ apiKey }) => {
      await connection.useSessionKey(apiKey);
      sessionMasked = maskSecret(apiKey);
      ctx.publish({ name: 'connection:changed', payload: appInfo(connection, platform, settings) });
      return changed();
    },
    'settings:clearApiKey': async () => {
      if (connection.hasSessionKey) {
        // The key for this run goes first: nothing of it was ever stored.
        await connection.useSessionKey(undefined);
        sessionMasked = undefined;
        ctx.publish({ name: 'connection:changed', payload: appInfo(connection, platform, settings) });
        return changed();
      }
      await vault.delete('api-key');
      return changed();
    },
    'settings:testConnection': async ({ apiKey, connection }) => {
      const started = Date.now();
      let label = ctx.connection.label;
      try {
        const tried = await ctx.connection.testConnection(apiKey, connection);
        label = tried.label;
        if (tried.failure !== undefined) throw tried.failure;
        return {
          success: true,
          connection: tried.label,
          simulated: tried.simulated,
          latencyMs: Date.now() - started,
        };
      } catch (e) {
        const se = e instanceof ServiceError ? e : undefined;
        return {
          success: false,
          connection: label,
          message: e instanceof Error ? e.message : String(e),
          ...(se?.internalErrorName ? { internalErrorName: se.internalErrorName } : {}),
          ...(se?.statusCode !== undefined ? { statusCode: se.statusCode } : {}),
        };
      }
    },
  };
}
