// The sandboxed preload: exposes exactly the contract as `window.api` — one method per channel
// (`api.queue.retry({ id })`), one `onX(listener)` per event returning its unsubscribe, and the
// path of a dropped file. ipcRenderer itself never reaches the page. Bundled to CommonJS by
// preload/vite.config.ts (a sandboxed preload cannot load ES modules). The object is checked
// against the contract (`satisfies BridgeApi`): a channel added there is a compile error here
// until it has its method.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import {
  EVENT_CHANNEL,
  type BridgeApi,
  type Channel,
  type EventName,
  type Events,
  type ParamsOf,
  type Result,
  type ResultOf,
} from './contract.js';

type ListenerSets = { [E in EventName]: Set<(payload: Events[E]) => void> };
const listeners: ListenerSets = {
  'job:added': new Set(),
  'job:updated': new Set(),
  'job:removed': new Set(),
  'queue:snapshot-changed': new Set(),
  'queue:stats-changed': new Set(),
  'queue:copying-changed': new Set(),
  'queue:elsewhere-changed': new Set(),
  'queue:paused': new Set(),
  'queue:resumed': new Set(),
  'folder:status-changed': new Set(),
  'settings:changed': new Set(),
  'connection:changed': new Set(),
  'navigation:requested': new Set(),
  'transcript:changed': new Set(),
  'selects:changed': new Set(),
};

function dispatch<E extends EventName>(name: E, payload: Events[E]): void {
  for (const l of listeners[name]) {
    try {
      l(payload);
    } catch (e) {
      console.error(`Sluice: a listener of ${name} failed`, e);
    }
  }
}

/** What main sends on EVENT_CHANNEL (see main/electron/ipc-transport.ts). */
type EventMessage = { [E in EventName]: { name: E; payload: Events[E] } }[EventName];

ipcRenderer.on(EVENT_CHANNEL, (_event, message: EventMessage) => dispatch(message.name, message.payload));

function invoke<C extends Channel>(channel: C): (params?: ParamsOf<C>) => Promise<Result<ResultOf<C>>> {
  return (params) => ipcRenderer.invoke(channel, params ?? {});
}

function subscribe<E extends EventName>(name: E): (listener: (payload: Events[E]) => void) => () => void {
  return (listener) => {
    if (typeof listener !== 'function') throw new TypeError(`A listener of ${name} must be a function.`);
    listeners[name].add(listener);
    return () => void listeners[name].delete(listener);
  };
}

const api = {
  app: {
    info: invoke('app:info'),
    ready: invoke('app:ready'),
    setStartAtLogin: invoke('app:setStartAtLogin'),
  },
  queue: {
    snapshot: invoke('queue:snapshot'),
    add: invoke('queue:add'),
    addLinks: invoke('queue:addLinks'),
    linkDestinations: invoke('queue:linkDestinations'),
    pickFiles: invoke('queue:pickFiles'),
    pause: invoke('queue:pause'),
    resume: invoke('queue:resume'),
    stopAfterCurrent: invoke('queue:stopAfterCurrent'),
    cancel: invoke('queue:cancel'),
    retry: invoke('queue:retry'),
    retryFailed: invoke('queue:retryFailed'),
    move: invoke('queue:move'),
    dismiss: invoke('queue:dismiss'),
    dismissFinished: invoke('queue:dismissFinished'),
    rewrite: invoke('queue:rewrite'),
    components: invoke('queue:components'),
  },
  result: {
    open: invoke('result:open'),
    reveal: invoke('result:reveal'),
  },
  source: {
    reveal: invoke('source:reveal'),
  },
  settings: {
    get: invoke('settings:get'),
    update: invoke('settings:update'),
    setApiKey: invoke('settings:setApiKey'),
    clearApiKey: invoke('settings:clearApiKey'),
    setClientCredentials: invoke('settings:setClientCredentials'),
    useSessionKey: invoke('settings:useSessionKey'),
    testConnection: invoke('settings:testConnection'),
  },
  folders: {
    pick: invoke('folders:pick'),
    add: invoke('folders:add'),
    update: invoke('folders:update'),
    remove: invoke('folders:remove'),
    pause: invoke('folders:pause'),
    resume: invoke('folders:resume'),
    rescan: invoke('folders:rescan'),
    statuses: invoke('folders:statuses'),
    retrySkipped: invoke('folders:retrySkipped'),
    ignoreSkipped: invoke('folders:ignoreSkipped'),
    unignoreSkipped: invoke('folders:unignoreSkipped'),
    fileSystem: invoke('folders:fileSystem'),
  },
  templates: {
    list: invoke('templates:list'),
    check: invoke('templates:check'),
  },
  recipes: {
    list: invoke('recipes:list'),
    parseGlossary: invoke('recipes:parseGlossary'),
  },
  history: {
    list: invoke('history:list'),
    cancelStream: invoke('history:cancelStream'),
    components: invoke('history:components'),
    rerun: invoke('history:rerun'),
    reviewWork: invoke('history:reviewWork'),
    reexport: invoke('history:reexport'),
  },
  usage: {
    report: invoke('usage:report'),
    csv: invoke('usage:csv'),
    stream: invoke('usage:stream'),
    currencies: invoke('usage:currencies'),
  },
  transcript: {
    open: invoke('transcript:open'),
    edit: invoke('transcript:edit'),
    undo: invoke('transcript:undo'),
    redo: invoke('transcript:redo'),
    revert: invoke('transcript:revert'),
    overwriteHeld: invoke('transcript:overwriteHeld'),
  },
  selects: {
    lists: invoke('selects:lists'),
    open: invoke('selects:open'),
    add: invoke('selects:add'),
    addFrom: invoke('selects:addFrom'),
    edit: invoke('selects:edit'),
    export: invoke('selects:export'),
  },
  onJobAdded: subscribe('job:added'),
  onJobUpdated: subscribe('job:updated'),
  onJobRemoved: subscribe('job:removed'),
  onQueueSnapshotChanged: subscribe('queue:snapshot-changed'),
  onQueueStatsChanged: subscribe('queue:stats-changed'),
  onQueueCopyingChanged: subscribe('queue:copying-changed'),
  onQueueElsewhereChanged: subscribe('queue:elsewhere-changed'),
  onQueuePaused: subscribe('queue:paused'),
  onQueueResumed: subscribe('queue:resumed'),
  onFolderStatusChanged: subscribe('folder:status-changed'),
  onSettingsChanged: subscribe('settings:changed'),
  onConnectionChanged: subscribe('connection:changed'),
  onNavigationRequested: subscribe('navigation:requested'),
  onTranscriptChanged: subscribe('transcript:changed'),
  onSelectsChanged: subscribe('selects:changed'),
  platform: 'electron',
  files: {
    pathForFile: (file: File): string | undefined => {
      try {
        return webUtils.getPathForFile(file) || undefined;
      } catch {
        return undefined;
      }
    },
  },
} satisfies BridgeApi;

contextBridge.exposeInMainWorld('api', api);
