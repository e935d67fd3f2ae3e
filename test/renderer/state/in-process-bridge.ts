// The preload's `window.api`, built over a real main-side bridge in this process: the same
// validation (`dispatch` parses every payload), handlers and event hub Electron and the web bridge
// serve, so a renderer state class under test talks to a real runtime on the embedded sandbox.
import { CHANNELS, EVENT_NAMES, subscriptionName } from '../../../preload/contract.js';
import type { BridgeApi, Events, EventName } from '../../../preload/contract.js';
import { createBridge, dispatch } from '../../../main/ipc/handlers.js';
import { openEnv, type Env } from '../../ipc/helpers.js';

export interface BridgeEnv extends Env {
  api: BridgeApi;
}

export async function openBridgeEnv(): Promise<BridgeEnv> {
  const env = await openEnv('web');
  const bridge = createBridge(env.rt, env.platform, { flushIntervalMs: 10, statsIntervalMs: 50 });
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  bridge.events.subscribe(
    (e) => {
      for (const l of listeners.get(e.name) ?? []) l(e.payload);
    },
    { ready: true },
  );
  const api: Record<string, unknown> = { platform: 'web', files: { pathForFile: () => undefined } };
  for (const channel of CHANNELS) {
    const [domain = '', verb = ''] = channel.split(':');
    const group = (api[domain] ??= {}) as Record<string, unknown>;
    group[verb] = (params?: unknown) => dispatch(bridge.handlers, channel, params ?? {});
  }
  for (const name of EVENT_NAMES) {
    api[subscriptionName(name)] = (listener: (payload: Events[typeof name]) => void) => {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener as (payload: unknown) => void);
      return () => void set.delete(listener as (payload: unknown) => void);
    };
  }
  return {
    ...env,
    api: api as BridgeApi,
    close: async () => {
      bridge.close();
      await env.close();
    },
  };
}
