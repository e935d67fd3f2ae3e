// The security settings of every surface that shows the renderer, as plain constants: the
// BrowserWindow's webPreferences, the Content-Security-Policy and the response headers. They live
// here, without importing Electron, so tests can check them and the web bridge can reuse them.

/** The renderer is served from this privileged scheme in Electron (file:// cannot run Vite's module bundle). */
export const APP_SCHEME = 'sluice';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * Nothing inline at all: the renderer's styles are bundled files and Svelte sets element styles
 * through the CSSOM, which style-src does not govern (the page's own meta CSP says the same).
 * connect-src 'self' covers the web bridge's fetch and EventSource on the same origin; media-src 'self'
 * the review view's player, whose source both transports serve under /media/ on the page's origin.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  // The review view's player: the job's source, served by the app itself (/media/…), nothing else.
  "media-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};

/** Electron's checklist: isolated, sandboxed, no Node in the page, web security on. */
export const WEB_PREFERENCES = {
  contextIsolation: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  sandbox: true,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  spellcheck: true,
} as const;

export const WINDOW_OPTIONS = {
  width: 1200,
  height: 800,
  minWidth: 820,
  minHeight: 560,
  show: false,
  title: 'Sluice',
  backgroundColor: '#1e1f22',
  autoHideMenuBar: true,
} as const;

/** True for a URL of our own renderer: the app scheme, or the dev server given at start-up. */
export function isRendererUrl(url: string, devServer?: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST) return true;
    return devServer !== undefined && u.origin === new URL(devServer).origin;
  } catch {
    return false;
  }
}

/** Links a person clicked that may leave the app: https only, opened in the system browser. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
