// The only module that talks to main. In Electron it forwards to the preload's `window.api`; in a
// browser (`sluice serve`) it speaks the web bridge: `POST /api/<channel>` with the token from the
// URL hash, events over Server-Sent Events. Both are typed from preload/contract.ts, and nothing is
// thrown across: every call resolves to a Result.
import type {
  AddOutcomeView,
  BridgeApi,
  BridgeError,
  ErrorCode,
  Channel,
  EventName,
  Events,
  Params,
  ParamsOf,
  Platform,
  Result,
  ResultFormat,
  ResultOf,
  UploadResult,
} from '../../../preload/contract';
// The contract has no runtime imports, so its constants bundle into the renderer as they are.
import { subscriptionName, WEB } from '../../../preload/contract';

declare global {
  interface Window {
    api?: BridgeApi;
  }
}

const {
  apiPrefix: API_PREFIX,
  tokenHeader: TOKEN_HEADER,
  eventsPath: EVENTS_PATH,
  uploadPath: UPLOAD_PATH,
  downloadPath: DOWNLOAD_PATH,
} = WEB;

/**
 * The preload's bridge, read once on first use (not on import) so state modules load anywhere;
 * a test hands in its own with `useBridge` before the first call.
 */
let bridge: BridgeApi | undefined | null = null;
function electronBridge(): BridgeApi | undefined {
  if (bridge === null) bridge = typeof window !== 'undefined' ? window.api : undefined;
  return bridge;
}

/** Tests: every call and subscription goes to `b` from now on, as it would to the preload's. */
export function useBridge(b: BridgeApi): void {
  bridge = b;
}

export const platform: Platform = electronBridge()?.platform ?? 'web';

// The token travels in the hash so it never reaches a server log or a Referer; it is then dropped
// from the address bar so a screenshot or a copied link does not leak it.
let tokenRead: string | undefined;
function token(): string {
  if (tokenRead !== undefined) return tokenRead;
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem('sluice-token', fromHash);
    history.replaceState(null, '', location.pathname + location.search);
    tokenRead = fromHash;
  } else tokenRead = sessionStorage.getItem('sluice-token') ?? '';
  return tokenRead;
}

// A newer link (`sluice serve --new-token`) opened in this tab changes only the fragment, which does
// not reload the page: start over with the token it carries. The same link again (the token is kept
// for the state folder across restarts) needs no reload, only its token taken out of the address bar.
if (!electronBridge() && typeof window !== 'undefined') {
  token();
  window.addEventListener('hashchange', () => {
    const next = new URLSearchParams(location.hash.slice(1)).get('token');
    if (!next) return;
    if (next !== token()) location.reload();
    else history.replaceState(null, '', location.pathname + location.search);
  });
}

// A request made as the page goes (a review field saved as the window closes or reloads) is
// kept alive past it; only then, as the browser allows little in flight that way.
let leaving = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => (leaving = true));
  window.addEventListener('pageshow', () => (leaving = false));
}

function failure(code: ErrorCode, message: string): { ok: false; error: BridgeError } {
  return { ok: false, error: { code, message, retryable: code === 'OFFLINE' } };
}

function apiUrl(path: string): string {
  // Relative to the page so the bridge can serve the app under any prefix.
  return new URL(`.${path}`, location.href).toString();
}

async function webCall<C extends Channel>(channel: C, params: ParamsOf<C> | undefined): Promise<Result<ResultOf<C>>> {
  let res: Response;
  try {
    res = await fetch(apiUrl(API_PREFIX + channel), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token() },
      body: JSON.stringify(params ?? {}),
      keepalive: leaving,
    });
  } catch {
    return failure('OFFLINE', 'Sluice is not reachable. Is `sluice serve` still running?');
  }
  try {
    return (await res.json()) as Result<ResultOf<C>>;
  } catch {
    if (res.status === 401 || res.status === 403)
      return failure('FORBIDDEN', 'This page lacks a valid token. Open the link `sluice serve` printed.');
    return failure('INTERNAL', `Unexpected answer from Sluice (HTTP ${res.status}).`);
  }
}

/** One request to main. */
export async function call<C extends Channel>(
  channel: C,
  ...args: Record<string, never> extends ParamsOf<C> ? [params?: ParamsOf<C>] : [params: ParamsOf<C>]
): Promise<Result<ResultOf<C>>> {
  const params = args[0];
  const electron = electronBridge();
  if (!electron) return webCall(channel, params);
  const [domain, verb] = channel.split(':') as [string, string];
  const group = (electron as unknown as Record<string, Record<string, (p: unknown) => Promise<unknown>>>)[domain];
  const method = group?.[verb];
  if (!method) return failure('INTERNAL', `This version of Sluice has no “${channel}”.`);
  try {
    return (await method(params ?? {})) as Result<ResultOf<C>>;
  } catch (e) {
    return failure('INTERNAL', e instanceof Error ? e.message : String(e));
  }
}

// ---- events -------------------------------------------------------------------------------------

type Listener = (payload: unknown) => void;
const listeners = new Map<EventName, Set<Listener>>();
let source: EventSource | null = null;
let connectionListener: ((state: ConnectionState) => void) | null = null;

/**
 * Web only: the event stream's state. `stale-link`: Sluice answers but refuses this tab's token (it
 * was started with `--new-token`, or on another state folder), so reconnecting cannot help: the
 * page says to open the new link instead of "Reconnecting…" for ever.
 */
export type ConnectionState = 'connected' | 'reconnecting' | 'stale-link';

const RECONNECT_MS = 2000;
let reopenTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The stream failed for good (EventSource gives up on an HTTP error, such as a refused token): ask
 * Sluice once whether it knows this tab's token. Refused: the link is stale; anything else (not up
 * yet, a proxy's error page) tries the stream again a little later.
 */
async function afterStreamClosed(): Promise<void> {
  let status = 0;
  try {
    const res = await fetch(apiUrl(API_PREFIX + 'app:info'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token() },
      body: '{}',
    });
    status = res.status;
    await res.body?.cancel();
  } catch {
    /* not reachable: try again */
  }
  if (status === 401 || status === 403) {
    connectionListener?.('stale-link');
    return;
  }
  connectionListener?.('reconnecting');
  clearTimeout(reopenTimer);
  reopenTimer = setTimeout(() => {
    source = null;
    openEventSource();
    for (const name of listeners.keys()) addNamedListener(name);
  }, RECONNECT_MS);
}

function dispatch(name: string, payload: unknown): void {
  for (const l of listeners.get(name as EventName) ?? []) l(payload);
}

function openEventSource(): void {
  if (source) return;
  const url = new URL(apiUrl(EVENTS_PATH));
  url.searchParams.set('token', token());
  source = new EventSource(url);
  // Tolerate both SSE shapes: named events (`event: job:updated`) and `{ name, payload }` messages.
  source.onmessage = (e: MessageEvent<string>) => {
    const msg = JSON.parse(e.data) as { name?: string; event?: string; payload?: unknown };
    const name = msg.name ?? msg.event;
    if (name) dispatch(name, msg.payload);
  };
  source.onopen = () => connectionListener?.('connected');
  source.onerror = () => {
    if (source?.readyState === EventSource.CLOSED) void afterStreamClosed();
    else connectionListener?.('reconnecting');
  };
}

function addNamedListener(name: EventName): void {
  source?.addEventListener(name, (e) => dispatch(name, JSON.parse((e as MessageEvent<string>).data)));
}

/** Subscribe to one event; returns the unsubscribe function. */
export function on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
  const electron = electronBridge();
  if (electron) {
    const subscribe = (electron as unknown as Record<string, (l: typeof listener) => () => void>)[
      subscriptionName(event)
    ];
    return subscribe ? subscribe(listener) : () => {};
  }
  openEventSource();
  let set = listeners.get(event);
  if (!set) {
    set = new Set();
    listeners.set(event, set);
    addNamedListener(event);
  }
  set.add(listener as Listener);
  return () => set.delete(listener as Listener);
}

/** Web only: whether the event stream is connected (EventSource reconnects on its own; see ConnectionState). */
export function onConnectionChange(listener: (state: ConnectionState) => void): void {
  connectionListener = listener;
}

// ---- files --------------------------------------------------------------------------------------

/** Electron: the real path of a dropped file; undefined in a browser. */
export function pathForFile(file: File): string | undefined {
  return electronBridge()?.files.pathForFile(file);
}

/** Web only: sends dropped files to the bridge, which saves and queues them. */
export async function uploadFiles(
  files: File[],
  options: { templateId?: string; params?: Params } = {},
): Promise<Result<AddOutcomeView[]>> {
  const form = new FormData();
  if (options.templateId) form.append('templateId', options.templateId);
  if (options.params) form.append('params', JSON.stringify(options.params));
  for (const f of files) form.append('files', f, (f as File & { relativePath?: string }).relativePath ?? f.name);
  try {
    const res = await fetch(apiUrl(UPLOAD_PATH), { method: 'POST', headers: { [TOKEN_HEADER]: token() }, body: form });
    return (await res.json()) as UploadResult;
  } catch {
    return failure('OFFLINE', 'The upload to Sluice did not go through. Is `sluice serve` still running?');
  }
}

/**
 * Web only: saves one result file of a job on this computer. The route needs the token header, so
 * the file is fetched and handed to the browser as a download under the name the server gave.
 */
export async function downloadResult(jobId: string, format: ResultFormat, fileName: string): Promise<Result<null>> {
  const url = new URL(apiUrl(DOWNLOAD_PATH));
  url.searchParams.set('jobId', jobId);
  url.searchParams.set('format', format);
  let res: Response;
  try {
    res = await fetch(url, { headers: { [TOKEN_HEADER]: token() } });
  } catch {
    return failure('OFFLINE', 'The download did not go through. Is `sluice serve` still running?');
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: BridgeError } | null;
    return { ok: false, error: body?.error ?? { code: 'INTERNAL', message: `HTTP ${res.status}`, retryable: false } };
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  return { ok: true, value: null };
}
