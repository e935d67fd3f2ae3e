// The desktop window's security settings, as plain constants: the app scheme and the
// BrowserWindow's webPreferences. They live here, without importing Electron, so tests can check
// them. The page's Content-Security-Policy and headers, shared with the web bridge, are in
// ipc/page-security.ts.

/** The renderer is served from this privileged scheme in Electron (file:// cannot run Vite's module bundle). */
export const APP_SCHEME = 'sluice';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

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
