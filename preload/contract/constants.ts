// Runtime constants (strings only; shared by preload, renderer and main).
// Part of the contract (../contract.ts re-exports every part): no imports but its siblings and common/.
import type { EventName } from './events.js';
import type { Channel } from './requests.js';

/** Formats made from the transcript's words alone: main writes by it, the renderer explains by it. */
export { WORD_FORMATS } from '../../common/formats.js';

// ---- runtime constants (strings only; shared by preload, renderer and main) ---------------------

/** The environment variable Sluice reads the API key from (it wins over a stored key). */
export const API_KEY_ENV = 'SLUICE_API_KEY';

/** Every channel, in contract order; main checks at compile time that this matches `Requests`. */
export const CHANNELS = [
  'app:info',
  'app:ready',
  'app:setStartAtLogin',
  'queue:snapshot',
  'queue:add',
  'queue:addLinks',
  'queue:linkDestinations',
  'queue:pickFiles',
  'queue:pause',
  'queue:resume',
  'queue:stopAfterCurrent',
  'queue:cancel',
  'queue:retry',
  'queue:retryFailed',
  'queue:move',
  'queue:dismiss',
  'queue:dismissFinished',
  'queue:rewrite',
  'queue:components',
  'result:open',
  'result:reveal',
  'source:reveal',
  'settings:get',
  'settings:update',
  'settings:setApiKey',
  'settings:clearApiKey',
  'settings:setClientCredentials',
  'settings:useSessionKey',
  'settings:testConnection',
  'folders:pick',
  'folders:add',
  'folders:update',
  'folders:remove',
  'folders:pause',
  'folders:resume',
  'folders:rescan',
  'folders:statuses',
  'folders:retrySkipped',
  'folders:ignoreSkipped',
  'folders:unignoreSkipped',
  'folders:fileSystem',
  'templates:list',
  'templates:check',
  'recipes:list',
  'recipes:parseGlossary',
  'history:list',
  'history:cancelStream',
  'history:components',
  'history:rerun',
  'history:reviewWork',
  'history:reexport',
  'usage:report',
  'usage:csv',
  'usage:stream',
  'usage:currencies',
  'transcript:open',
  'transcript:edit',
  'transcript:undo',
  'transcript:redo',
  'transcript:revert',
  'transcript:overwriteHeld',
  'selects:lists',
  'selects:open',
  'selects:add',
  'selects:addFrom',
  'selects:edit',
  'selects:export',
] as const satisfies readonly Channel[];

export const EVENT_NAMES = [
  'job:added',
  'job:updated',
  'job:removed',
  'queue:snapshot-changed',
  'queue:stats-changed',
  'queue:copying-changed',
  'queue:elsewhere-changed',
  'queue:paused',
  'queue:resumed',
  'folder:status-changed',
  'settings:changed',
  'connection:changed',
  'navigation:requested',
  'transcript:changed',
  'selects:changed',
] as const satisfies readonly EventName[];

/** Electron IPC channel carrying every event as `{ name, payload }` (one listener in preload). */
export const EVENT_CHANNEL = 'sluice:event';

/** Web bridge: `POST /api/<channel>` with JSON params; header carrying the token; events over SSE. */
export const WEB = {
  apiPrefix: '/api/',
  tokenHeader: 'x-sluice-token',
  /**
   * Server-Sent Events, one `event: <EventName>` + `data: <JSON payload>` per event. EventSource
   * cannot send headers: the token goes in the query string (`?token=`). Every connection starts
   * with one `queue:snapshot-changed`, so nothing is missed between connecting and the first event.
   */
  eventsPath: '/api/events',
  /** multipart/form-data (fields templateId, params as JSON, then files) or a raw body with ?name=. */
  uploadPath: '/api/queue:upload',
  /**
   * `GET ?jobId=&format=` with the token header: one result file of a job as an attachment
   * (Content-Disposition with the exact name as RFC 5987 `filename*`). The browser's way to take
   * results home, since they live in the state folder on the machine running `sluice serve`.
   */
  downloadPath: '/api/result:download',
} as const;
