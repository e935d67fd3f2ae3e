// The one place that creates BrowserWindows, and the app:// scheme the renderer is served from.
// Options are constants in security.ts, the page's CSP and headers in ipc/page-security.ts (both
// checked by tests without Electron).
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { BrowserWindow, net, protocol, session, shell } from 'electron';
import {
  APP_HOST,
  APP_ORIGIN,
  APP_SCHEME,
  WEB_PREFERENCES,
  WINDOW_OPTIONS,
  isRendererUrl,
  isSafeExternalUrl,
} from './security.js';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../ipc/page-security.js';
import { MEDIA_PREFIX, type MediaResponse } from '../ipc/media-response.js';

/** Must run before `app` is ready: app:// behaves like https (secure, fetch, storage). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
  ]);
}

/** A job's source for the review view's player (main/ipc/media-response.ts). */
export type MediaServer = (jobId: string, method: string, range: string | undefined) => Promise<MediaResponse>;

/**
 * Serves dist/renderer under app://app/, never a file outside it; unknown paths get index.html.
 * app://app/media/<jobId> streams that job's source, with range requests, when `media` is given.
 */
export function serveRenderer(rendererDir: string, media?: MediaServer): void {
  const root = path.resolve(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
    if (media && url.pathname.startsWith(MEDIA_PREFIX)) {
      let jobId: string;
      try {
        jobId = decodeURIComponent(url.pathname.slice(MEDIA_PREFIX.length));
      } catch {
        return new Response('Bad request', { status: 400 });
      }
      const r = await media(jobId, request.method, request.headers.get('range') ?? undefined);
      const headers = new Headers({ ...SECURITY_HEADERS, ...r.headers });
      const body = r.body ? (Readable.toWeb(r.body) as ReadableStream<Uint8Array>) : null;
      return new Response(body, { status: r.status, headers });
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(url.pathname);
    } catch {
      // A malformed %-escape is the request's fault: answer it, do not throw in the handler.
      return new Response('Bad request', { status: 400 });
    }
    const rel = path.posix.normalize(decoded);
    let file = path.join(root, rel);
    if (file !== root && !file.startsWith(root + path.sep)) return new Response('Not found', { status: 404 });
    if (rel === '/' || !path.extname(rel)) file = path.join(root, 'index.html');
    const res = await net.fetch(pathToFileURL(file).toString()).catch(() => undefined);
    if (!res?.ok) return new Response('Not found', { status: 404 });
    const headers = new Headers(res.headers);
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) headers.set(k, v);
    return new Response(res.body, { status: 200, headers });
  });
}

/** The CSP on every response the default session loads (the dev server's too). */
export function installCsp(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  // The renderer needs no camera, microphone, location or notifications permission from Chromium.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

export interface WindowOptions {
  preload: string;
  icon?: string;
  /** Vite's dev server (development only); otherwise app://app/. */
  devServer?: string;
  show: boolean;
}

export function createMainWindow(o: WindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    ...WINDOW_OPTIONS,
    ...(o.icon ? { icon: o.icon } : {}),
    webPreferences: { ...WEB_PREFERENCES, preload: o.preload },
  });
  const wc = win.webContents;
  wc.on('will-navigate', (event, url) => {
    // The renderer routes inside the page; any real navigation is refused (links go to the browser).
    if (isRendererUrl(url, o.devServer) && url.split('#')[0] === wc.getURL().split('#')[0]) return;
    event.preventDefault();
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
  });
  wc.on('will-redirect', (event, url) => {
    if (!isRendererUrl(url, o.devServer)) event.preventDefault();
  });
  wc.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  wc.on('will-attach-webview', (event) => event.preventDefault());
  if (o.show) win.once('ready-to-show', () => win.show());
  void win.loadURL(o.devServer ?? `${APP_ORIGIN}/`);
  return win;
}
