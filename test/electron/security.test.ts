// The window's security options and the CSP, checked without Electron: they are constants in
// main/security.ts, and window.ts must build every BrowserWindow from them. The window itself is
// built by window.ts against a stand-in for Electron's BrowserWindow and shell.
import { readFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { APP_ORIGIN, isRendererUrl, isSafeExternalUrl } from '../../main/electron/security.js';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../main/ipc/page-security.js';
import { createMainWindow, serveRenderer } from '../../main/electron/window.js';

type Listener = (event: { preventDefault(): void }, url: string) => void;

const electron = vi.hoisted(() => {
  const opened: string[] = [];
  class FakeWebContents {
    readonly listeners = new Map<string, Listener>();
    openHandler: ((d: { url: string }) => { action: string }) | undefined;
    url = '';
    on(name: string, l: Listener): void {
      this.listeners.set(name, l);
    }
    setWindowOpenHandler(h: (d: { url: string }) => { action: string }): void {
      this.openHandler = h;
    }
    getURL(): string {
      return this.url;
    }
  }
  class BrowserWindow {
    readonly webContents = new FakeWebContents();
    constructor(readonly options: { webPreferences?: Record<string, unknown> }) {}
    once(): void {}
    loadURL(url: string): Promise<void> {
      this.webContents.url = url;
      return Promise.resolve();
    }
  }
  return {
    BrowserWindow,
    net: { fetch: async () => new Response('<!doctype html>', { status: 200 }) },
    protocol: {
      handler: undefined as ((r: Request) => Promise<Response>) | undefined,
      handle(_scheme: string, h: (r: Request) => Promise<Response>) {
        this.handler = h;
      },
    },
    session: {},
    shell: { openExternal: async (u: string) => void opened.push(u) },
    opened,
  };
});
vi.mock('electron', () => electron);

const source = (rel: string) => readFile(new URL(`../../${rel}`, import.meta.url), 'utf8');

function openWindow() {
  const win = createMainWindow({ preload: '/app/preload/index.cjs', show: false }) as unknown as InstanceType<
    typeof electron.BrowserWindow
  >;
  const wc = win.webContents;
  /** Fires a webContents event; true when the handler refused it. */
  const fire = (name: string, url: string): boolean => {
    let prevented = false;
    wc.listeners.get(name)?.({ preventDefault: () => void (prevented = true) }, url);
    return prevented;
  };
  return { win, wc, fire };
}

describe('window security', () => {
  it('isolates and sandboxes the renderer', () => {
    const { win } = openWindow();
    expect(win.options.webPreferences).toMatchObject({
      preload: '/app/preload/index.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('has a strict CSP: no inline or remote scripts, no eval, no framing', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    // The review view's player: the app's own /media/ route and nothing wider.
    expect(directives.get('media-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
  });

  it('trusts only its own renderer and opens only https links outside', () => {
    expect(isRendererUrl(`${APP_ORIGIN}/index.html`)).toBe(true);
    expect(isRendererUrl('sluice://evil/index.html')).toBe(false);
    expect(isRendererUrl('file:///etc/passwd')).toBe(false);
    expect(isRendererUrl('https://example.org/')).toBe(false);
    expect(isRendererUrl('http://localhost:5173/x', 'http://localhost:5173')).toBe(true);
    expect(isSafeExternalUrl('https://example.org')).toBe(true);
    expect(isSafeExternalUrl('http://example.org')).toBe(false);
    expect(isSafeExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false);
  });

  it('keeps the window on its own page: navigation refused, links to https opened outside', () => {
    electron.opened.length = 0;
    const { wc, fire } = openWindow();
    expect(wc.getURL()).toBe(`${APP_ORIGIN}/`);
    expect(fire('will-navigate', `${APP_ORIGIN}/#history`)).toBe(false);
    expect(fire('will-navigate', 'https://example.org/docs')).toBe(true);
    expect(fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(fire('will-redirect', 'https://example.org/')).toBe(true);
    expect(fire('will-attach-webview', `${APP_ORIGIN}/`)).toBe(true);
    expect(wc.openHandler?.({ url: 'https://example.org/help' })).toEqual({ action: 'deny' });
    expect(wc.openHandler?.({ url: 'http://example.org/' })).toEqual({ action: 'deny' });
    expect(electron.opened).toEqual(['https://example.org/docs', 'https://example.org/help']);
  });

  it('answers a malformed %-escape in an app URL with 400, and still serves good ones', async () => {
    serveRenderer('/app/renderer');
    const handler = electron.protocol.handler;
    expect((await handler?.(new Request(`${APP_ORIGIN}/%E0%A4%A`)))?.status).toBe(400);
    expect((await handler?.(new Request(`${APP_ORIGIN}/`)))?.status).toBe(200);
  });

  it('creates windows only in window.ts, from these constants, with navigation blocked', async () => {
    const win = await source('main/electron/window.ts');
    expect(win).toContain('...WEB_PREFERENCES');
    expect(win).toContain("'will-navigate'");
    expect(win).toContain('setWindowOpenHandler');
    expect(win).toContain("action: 'deny'");
    const security = await source('main/electron/security.ts');
    expect(security).not.toMatch(/from 'electron'/);
    for (const f of [
      'main/index.ts',
      'main/electron/shell.ts',
      'main/electron/tray.ts',
      'main/electron/notifications.ts',
      'main/electron/platform.ts',
    ]) {
      expect(await source(f)).not.toContain('new BrowserWindow');
    }
  });

  it('exposes no ipcRenderer and no generic channel from the preload', async () => {
    const preload = await source('preload/index.ts');
    expect(preload).toContain("exposeInMainWorld('api'");
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
    // One method per contract channel, the object checked against the contract (no cast).
    expect(preload).toMatch(/\} satisfies BridgeApi;/);
    expect(preload).toMatch(/function invoke<C extends Channel>\(channel: C\)/);
    expect(preload).not.toMatch(/ as BridgeApi/);
  });
});
