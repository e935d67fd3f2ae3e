// Electron composition root: one instance, the runtime in the app-data folder, the IPC bridge, the
// window, the tray and notifications. Everything that decides lives elsewhere; this only wires.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { app, dialog, safeStorage, type BrowserWindow } from 'electron';
import { keytarStore } from './adapters/store/keychain.js';
import { createElectronVault, quietVault } from './electron/secret-store.js';
import { electronPlatform } from './electron/platform.js';
import { attachWindow, registerIpc } from './electron/ipc-transport.js';
import { createBridge, type Bridge } from './ipc/handlers.js';
import { startNotifications } from './electron/notifications.js';
import { Runtime } from './runtime.js';
import { AppTray } from './electron/tray.js';
import { createMainWindow, installCsp, registerAppScheme, serveRenderer } from './electron/window.js';

const here = (rel: string): string => fileURLToPath(new URL(rel, import.meta.url));
const PRELOAD = here('../preload/index.cjs');
const RENDERER = here('../renderer/');
const ICON = [here('../../resources/icon.png'), here('../renderer/icon.png')].find((p) => existsSync(p));
// Development only: the renderer from Vite's dev server.
const DEV_SERVER = !app.isPackaged ? process.env.SLUICE_RENDERER_URL : undefined;

let runtime: Runtime | undefined;
let bridge: Bridge | undefined;
let win: BrowserWindow | undefined;
let windowEvents: ReturnType<typeof attachWindow> | undefined;
let tray: AppTray | undefined;
let quitting = false;
const cleanups: Array<() => void> = [];

function showWindow(jobId?: string): void {
  if (!win || win.isDestroyed()) openWindow(true);
  else {
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }
  if (jobId) bridge?.events.publish({ name: 'navigation:requested', payload: { screen: 'queue', jobId } });
}

function openWindow(show: boolean): void {
  if (!bridge) return;
  win = createMainWindow({
    preload: PRELOAD,
    show,
    ...(ICON ? { icon: ICON } : {}),
    ...(DEV_SERVER ? { devServer: DEV_SERVER } : {}),
  });
  windowEvents = attachWindow(bridge, win.webContents);
  win.on('close', (e) => {
    // Closing the window leaves Sluice in the tray; Quit (tray, menu, OS) really quits.
    if (!quitting) {
      e.preventDefault();
      win?.hide();
    }
  });
}

async function start(): Promise<void> {
  const stateDir = app.getPath('userData');
  const vault = createElectronVault({ stateDir, keytar: keytarStore(), safeStorage });
  try {
    runtime = await Runtime.open({ stateDir, secrets: quietVault(vault) });
  } catch (e) {
    dialog.showErrorBox('Sluice cannot start', e instanceof Error ? e.message : String(e));
    app.exit(1);
    return;
  }
  const rt = runtime;
  const platform = electronPlatform({ window: () => win, secrets: vault, rendererReady: () => windowEvents?.ready() });
  const b = createBridge(rt, platform);
  bridge = b;
  cleanups.push(registerIpc(b, DEV_SERVER));
  installCsp();
  serveRenderer(RENDERER);
  await rt.start({ watch: true });

  openWindow(!process.argv.includes('--hidden'));
  if (ICON) {
    const t = new AppTray(ICON, {
      open: () => showWindow(),
      pause: () => rt.pause(),
      resume: () => rt.resume(),
      quit: () => app.quit(),
    });
    tray = t;
    t.update(b.model.stats());
    const sub = b.events.subscribe(
      (e) => {
        if (e.name === 'queue:stats-changed') t.update(e.payload);
        else if (e.name === 'queue:paused' || e.name === 'queue:resumed') t.update(b.model.stats());
      },
      { ready: true },
    );
    cleanups.push(() => sub.close());
  }
  cleanups.push(startNotifications(b.events, (jobId) => showWindow(jobId)));
}

if (!app.requestSingleInstanceLock()) {
  // Another Sluice owns the state dir: it brings its window up (second-instance) and we leave.
  app.quit();
} else {
  registerAppScheme();
  app.on('second-instance', () => showWindow());
  app.on('activate', () => showWindow());
  // Closing every window keeps the tray and the watch folders running.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', () => {
    quitting = true;
  });
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closed = true;
    for (const c of cleanups.splice(0)) c();
    tray?.destroy();
    bridge?.close();
    // The journal is flushed and uploads in flight stay resumable; then really quit.
    void (runtime?.close() ?? Promise.resolve()).finally(() => app.quit());
  });
  void app.whenReady().then(start);
}
