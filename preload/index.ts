// The sandboxed preload: exposes exactly the contract as `window.api` — one method per channel
// (`api.queue.retry({ id })`), one `onX(listener)` per event returning its unsubscribe, and the
// path of a dropped file. ipcRenderer itself never reaches the page. Bundled to CommonJS by
// preload/vite.config.ts (a sandboxed preload cannot load ES modules).
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { CHANNELS, EVENT_CHANNEL, EVENT_NAMES, subscriptionName, type BridgeApi, type EventName } from './contract.js';

type Listener = (payload: unknown) => void;
const listeners = new Map<EventName, Set<Listener>>(EVENT_NAMES.map((e) => [e, new Set<Listener>()]));

ipcRenderer.on(EVENT_CHANNEL, (_event, message: { name: EventName; payload: unknown }) => {
  for (const l of listeners.get(message.name) ?? []) {
    try {
      l(message.payload);
    } catch (e) {
      console.error(`Sluice: a listener of ${message.name} failed`, e);
    }
  }
});

const api: Record<string, unknown> = {};
for (const channel of CHANNELS) {
  const [domain = '', verb = ''] = channel.split(':');
  const methods = (api[domain] ??= {}) as Record<string, unknown>;
  methods[verb] = (params?: unknown) => ipcRenderer.invoke(channel, params ?? {});
}
for (const name of EVENT_NAMES) {
  api[subscriptionName(name)] = (listener: Listener) => {
    if (typeof listener !== 'function') throw new TypeError(`${subscriptionName(name)} needs a function.`);
    listeners.get(name)?.add(listener);
    return () => void listeners.get(name)?.delete(listener);
  };
}
api.platform = 'electron';
api.files = {
  pathForFile: (file: unknown): string | undefined => {
    try {
      return webUtils.getPathForFile(file as File) || undefined;
    } catch {
      return undefined;
    }
  },
};

contextBridge.exposeInMainWorld('api', api as BridgeApi);
