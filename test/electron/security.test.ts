// The window's security options and the CSP, checked without Electron: they are constants in
// main/security.ts, and window.ts must build every BrowserWindow from them.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  APP_ORIGIN,
  CONTENT_SECURITY_POLICY,
  SECURITY_HEADERS,
  WEB_PREFERENCES,
  isRendererUrl,
  isSafeExternalUrl,
} from '../../main/security.js';

const source = (rel: string) => readFile(new URL(`../../${rel}`, import.meta.url), 'utf8');

describe('window security', () => {
  it('isolates and sandboxes the renderer', () => {
    expect(WEB_PREFERENCES).toMatchObject({
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

  it('creates windows only in window.ts, from these constants, with navigation blocked', async () => {
    const win = await source('main/window.ts');
    expect(win).toContain('...WEB_PREFERENCES');
    expect(win).toContain("'will-navigate'");
    expect(win).toContain('setWindowOpenHandler');
    expect(win).toContain("action: 'deny'");
    const security = await source('main/security.ts');
    expect(security).not.toMatch(/from 'electron'/);
    for (const f of ['main/index.ts', 'main/tray.ts', 'main/notifications.ts', 'main/electron/platform.ts']) {
      expect(await source(f)).not.toContain('new BrowserWindow');
    }
  });

  it('exposes no ipcRenderer and no generic channel from the preload', async () => {
    const preload = await source('preload/index.ts');
    expect(preload).toContain("exposeInMainWorld('api'");
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
    expect(preload).toMatch(/for \(const channel of CHANNELS\)/);
  });
});
