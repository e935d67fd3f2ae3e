// The desktop app's life: one instance, the state folder shared with the CLI, the runtime opened even
// without a key (the queue then waits paused for credentials and Settings is where the key goes),
// the window first and the watch folders behind it, the tray, notifications, and a quit that closes
// the runtime. index.ts only passes the paths in.
import { app, dialog, Menu, safeStorage, type BrowserWindow } from 'electron';
import { keytarStore } from '../adapters/store/secrets/keychain.js';
import { adoptLegacyStateDir, defaultStateDir } from '../adapters/store/state/state-dir.js';
import { releaseStateLockIfMine } from '../adapters/store/state/state-lock.js';
import { appInfo } from '../ipc/handler-context.js';
import { createBridge, type Bridge } from '../ipc/handlers.js';
import { MEDIA_PREFIX, mediaResponse } from '../ipc/media-response.js';
import { Runtime } from '../runtime/runtime.js';
import { APP_USER_MODEL_ID, closeAction, menuTemplate } from './desktop.js';
import { attachWindow, registerIpc } from './ipc-transport.js';
import { startNotifications } from './notifications.js';
import { electronPlatform } from './platform.js';
import { createElectronVault, quietVault, RETRY_MS } from './secret-store.js';
import { AppTray, type TrayIcons } from './tray.js';
import { APP_ORIGIN } from './security.js';
import { createMainWindow, installCsp, registerAppScheme, serveRenderer } from './window.js';

export interface ShellOptions {
  preload: string;
  renderer: string;
  /** The window icon (PNG). */
  icon?: string;
  tray?: TrayIcons;
  /** Vite's dev server (development only). */
  devServer?: string;
  argv?: readonly string[];
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** How often a run without credentials looks in the keychain again. */
  credentialsRetryMs?: number;
}

export interface Shell {
  /** Resolves once start-up is over (window, tray and watch folders), or the app gave up. */
  started: Promise<void>;
}

export function runShell(o: ShellOptions): Shell {
  const env = o.env ?? process.env;
  const platform = o.platform ?? process.platform;
  const argv = o.argv ?? process.argv;

  let runtime: Runtime | undefined;
  let bridge: Bridge | undefined;
  let win: BrowserWindow | undefined;
  let windowEvents: ReturnType<typeof attachWindow> | undefined;
  let tray: AppTray | undefined;
  let quitting = false;
  let closing: Promise<void> | undefined;
  const cleanups: Array<() => void> = [];
  /** Closes the runtime once, whichever of quit and session end comes first. */
  const closeRuntime = (): Promise<void> => (closing ??= runtime?.close() ?? Promise.resolve());

  // Before ready: the app-data folder is the one the CLI uses (one resolver), adopted from the
  // lower-case folder older releases wrote; Windows toasts carry the installer's AppUserModelID.
  const stateDir = defaultStateDir({ env, platform });
  try {
    const adopted = adoptLegacyStateDir(stateDir);
    if (adopted.note) console.warn(adopted.note);
  } catch (e) {
    console.warn(`The earlier state folder could not be moved: ${(e as Error).message}`);
  }
  app.setPath('userData', stateDir);
  if (platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);

  /** A relaunch while the runtime is still opening: the window comes up shown once it exists. */
  let showRequested = false;

  function showWindow(jobId?: string): void {
    const w = openWindow(true);
    if (!w) showRequested = true;
    else {
      if (w.isMinimized()) w.restore();
      w.show();
      w.focus();
    }
    if (jobId) bridge?.events.publish({ name: 'navigation:requested', payload: { screen: 'queue', jobId } });
  }

  /** The one window: created once (again only after it was destroyed); undefined before the bridge. */
  function openWindow(show: boolean): BrowserWindow | undefined {
    if (win && !win.isDestroyed()) return win;
    if (!bridge) return undefined;
    const w = createMainWindow({
      preload: o.preload,
      show,
      ...(o.icon ? { icon: o.icon } : {}),
      ...(o.devServer ? { devServer: o.devServer } : {}),
    });
    win = w;
    windowEvents = attachWindow(bridge, w.webContents);
    w.on('close', (e) => {
      // Closing the window leaves Sluice running (tray, watch folders); Quit (tray, menu, OS) quits.
      if (quitting) return;
      e.preventDefault();
      if (closeAction(tray !== undefined, platform, env) === 'hide') w.hide();
      else w.minimize();
    });
    // Windows skips before-quit and will-quit at logoff and shutdown: leave no lock behind.
    w.on('session-end', () => {
      releaseStateLockIfMine(stateDir);
      void closeRuntime();
    });
    return w;
  }

  function startedHidden(): boolean {
    if (argv.includes('--hidden')) return true;
    return platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true;
  }

  async function start(): Promise<void> {
    const vault = createElectronVault({ stateDir, keytar: keytarStore(), safeStorage });
    try {
      runtime = await Runtime.open({ stateDir, secrets: quietVault(vault), missingCredentials: 'pause' });
    } catch (e) {
      // Only what no screen can fix ends up here (another Sluice holds the folder, an unreadable disk).
      dialog.showErrorBox('Sluice cannot start', e instanceof Error ? e.message : String(e));
      app.exit(1);
      return;
    }
    const rt = runtime;
    const port = electronPlatform({
      window: () => win,
      secrets: vault,
      rendererReady: () => windowEvents?.ready(),
      platform,
    });
    // The player loads the source from the app's own scheme (served by serveRenderer below).
    port.mediaUrl = (jobId) => `${APP_ORIGIN}${MEDIA_PREFIX}${encodeURIComponent(jobId)}`;
    const b = createBridge(rt, port);
    bridge = b;
    cleanups.push(registerIpc(b, o.devServer));
    installCsp();
    serveRenderer(o.renderer, (jobId, method, range) => mediaResponse(rt.queue, jobId, method, range));
    Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(platform, !app.isPackaged)));

    // The window and the tray first: watch folders on a slow share may take a while to set up.
    if (o.tray) {
      const t = new AppTray(o.tray, platform, {
        open: () => showWindow(),
        pause: () => rt.queue.pause(),
        resume: () => rt.queue.resume(),
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
    const hidden = startedHidden() && !showRequested;
    const w = openWindow(!hidden);
    // Without a visible tray a hidden start would leave nothing to click: start minimized instead.
    if (hidden && w && closeAction(tray !== undefined, platform, env) === 'minimize') {
      w.once('ready-to-show', () => {
        w.showInactive();
        w.minimize();
      });
    }
    const notices = startNotifications(b.events, (jobId) => showWindow(jobId));
    cleanups.push(() => notices.stop());

    // A run without a key looks in the keychain again (it may have been locked at login).
    const retry = setInterval(() => {
      if (!rt.connection.credentialsMissing) return;
      rt.connection.reconnect().then(
        () => b.events.publish({ name: 'connection:changed', payload: appInfo(rt.connection, port, rt.settings) }),
        () => undefined,
      );
    }, o.credentialsRetryMs ?? RETRY_MS);
    retry.unref();
    cleanups.push(() => clearInterval(retry));

    try {
      await rt.start({ watch: true });
    } catch (e) {
      console.error(`Watch folders could not be started: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  let started: Promise<void> = Promise.resolve();
  if (!app.requestSingleInstanceLock()) {
    // Another Sluice owns the state dir: it brings its window up (second-instance) and we leave.
    app.quit();
    return { started };
  }
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
    void closeRuntime().finally(() => app.quit());
  });
  started = app.whenReady().then(start);
  return { started };
}
