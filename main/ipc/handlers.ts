// The contract's handlers, transport-agnostic: one typed map `{ [channel]: params → Result }`.
// Electron IPC and the web bridge both call `dispatch`, which parses the raw payload with the
// channel's strict schema first, so nothing malformed ever reaches the runtime.
import type { Channel, ParamsOf, Result, ResultOf } from '../../preload/contract.js';
import type { Services } from '../runtime/services.js';
import { settle, toBridgeError } from './errors.js';
import { EventHub, type BridgeEvent, type EventHubOptions } from './event-stream.js';
import { folderHandlers } from './handle-folders.js';
import { historyHandlers } from './handle-history.js';
import { linkHandlers } from './handle-links.js';
import { queueHandlers } from './handle-queue.js';
import { recipeHandlers } from './handle-recipes.js';
import { selectsHandlers } from './handle-selects.js';
import { settingsHandlers } from './handle-settings.js';
import { transcriptHandlers } from './handle-transcript.js';
import { usageHandlers } from './handle-usage.js';
import type { HandlerContext, RawHandlers } from './handler-context.js';
import type { PlatformPort } from './platform.js';
import { QueueModel } from './queue-model.js';
import { isChannel, parseParams } from './schemas.js';

export type Handlers = { [C in Channel]: (params: ParamsOf<C>) => Promise<Result<ResultOf<C>>> };

export interface HandlerDeps {
  /** Where handler-made events go (settings saved, connection changed); default: nowhere. */
  publish?: (e: BridgeEvent) => void;
  model?: QueueModel;
}

export function createHandlers(services: Services, platform: PlatformPort, deps: HandlerDeps = {}): Handlers {
  const model = deps.model ?? new QueueModel(services);
  const publish = deps.publish ?? (() => undefined);
  // Each domain's handlers take the few services they name (HandlerContext<K>); this is the one
  // place they are all handed over.
  const ctx: HandlerContext = {
    stateDir: services.stateDir,
    settings: services.settings,
    connection: services.connection,
    queue: services.queue,
    results: services.results,
    history: services.history,
    folders: services.folders,
    claims: services.claims,
    transcripts: services.transcripts,
    selects: services.selects,
    templates: services.templates,
    on: (listener) => services.on(listener),
    updateSettings: (change) => services.updateSettings(change),
    platform,
    model,
    publish,
    settingsChanged: async () => {
      await settings.changed();
    },
  };
  const settings = settingsHandlers(ctx);
  const { changed: _changed, ...settingsRaw } = settings;
  const raw: RawHandlers = {
    ...queueHandlers(ctx),
    ...linkHandlers(ctx),
    ...settingsRaw,
    ...folderHandlers(ctx),
    ...historyHandlers(ctx),
    ...usageHandlers(ctx),
    ...recipeHandlers(ctx),
    ...transcriptHandlers(ctx),
    ...selectsHandlers(ctx),
  };
  const wrapped: Partial<Record<Channel, (p: never) => Promise<Result<unknown>>>> = {};
  for (const c of Object.keys(raw) as Channel[]) {
    const h = raw[c] as (p: unknown) => unknown;
    wrapped[c] = (p: unknown) => settle(() => h(p));
  }
  return wrapped as Handlers;
}

/** Parses and runs one request from a transport. Never throws; unknown channels are INVALID_PARAMS. */
export async function dispatch(handlers: Handlers, channel: string, raw: unknown): Promise<Result<unknown>> {
  if (!isChannel(channel)) {
    return {
      ok: false,
      error: { code: 'INVALID_PARAMS', message: `There is no request "${channel.slice(0, 80)}".`, retryable: false },
    };
  }
  let params: unknown;
  try {
    params = parseParams(channel, raw);
  } catch (e) {
    return { ok: false, error: toBridgeError(e) };
  }
  return (handlers[channel] as (p: unknown) => Promise<Result<unknown>>)(params);
}

/** Handlers plus the event hub they publish to: what a transport needs to serve one runtime. */
export interface Bridge {
  handlers: Handlers;
  events: EventHub;
  model: QueueModel;
  close(): void;
}

export function createBridge(services: Services, platform: PlatformPort, opts: EventHubOptions = {}): Bridge {
  const model = new QueueModel(services);
  const events = new EventHub(services, model, opts);
  const handlers = createHandlers(services, platform, { model, publish: (e) => events.publish(e) });
  // A list `sluice selects` changes while the app runs reaches the open screens as the app's own do.
  let closed = false;
  let unwatch: (() => void) | undefined;
  void services.selects.store
    .watch((list) => events.publish({ name: 'selects:changed', payload: { list: list.name, revision: list.revision } }))
    .then(
      (stop) => (closed ? stop() : (unwatch = stop)),
      () => undefined,
    );
  return {
    handlers,
    events,
    model,
    close: () => {
      closed = true;
      unwatch?.();
      events.close();
    },
  };
}
