// The desktop app's life, driven through a stand-in for Electron (no Electron binary is needed):
// it opens without a key, the window comes before the watch folders and is never doubled, the
// keychain is tried again, notifications are held until they close, and Windows and Linux
// specifics (AppUserModelID, login items, AppImage autostart, no tray host, session end).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as KeychainModule from '../../main/adapters/store/secrets/keychain.js';
import type { SecretStore } from '../../main/adapters/store/secrets/keychain.js';
import { SettingsStore } from '../../main/adapters/store/state/settings-store.js';
import { LOCK_FILE } from '../../main/adapters/store/state/state-lock.js';
import { autostartExec, electronPlatform, LOGIN_ARGS } from '../../main/electron/platform.js';
import { closeAction, menuTemplate, trayLikelyVisible } from '../../main/electron/desktop.js';
import { startNotifications } from '../../main/electron/notifications.js';
import { runShell } from '../../main/electron/shell.js';
import type { EventHub } from '../../main/ipc/event-stream.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';

const electron = await vi.hoisted(async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class WebContents extends Emitter {
    url = '';
    sent: unknown[] = [];
    isDestroyed = () => false;
    send = (_c: string, e: unknown) => void this.sent.push(e);
    setWindowOpenHandler(): void {}
    getURL = () => this.url;
  }
  class BrowserWindow extends Emitter {
    static all: BrowserWindow[] = [];
    readonly webContents = new WebContents();
    visible = false;
    minimized = false;
    destroyed = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      BrowserWindow.all.push(this);
    }
    loadURL(url: string): Promise<void> {
      this.webContents.url = url;
      return Promise.resolve();
    }
    isDestroyed = () => this.destroyed;
    isMinimized = () => this.minimized;
    restore = () => void (this.minimized = false);
    show = () => void (this.visible = true);
    showInactive = () => void (this.visible = true);
    focus(): void {}
    hide = () => void (this.visible = false);
    minimize = () => void (this.minimized = true);
    /** Fires `close` as the OS would; true when Sluice kept the window. */
    userCloses(): boolean {
      let kept = false;
      this.emit('close', { preventDefault: () => void (kept = true) });
      return kept;
    }
  }
  class Notification extends Emitter {
    static shown: Notification[] = [];
    static isSupported = () => true;
    constructor(readonly options: { title: string }) {
      super();
    }
    show(): void {
      Notification.shown.push(this);
    }
  }
  class Tray extends Emitter {
    static all: Tray[] = [];
    constructor(readonly image: unknown) {
      super();
      Tray.all.push(this);
    }
    setToolTip(): void {}
    setContextMenu(): void {}
    destroy(): void {}
  }
  const app = Object.assign(new Emitter(), {
    isPackaged: true,
    paths: new Map<string, string>(),
    aumid: undefined as string | undefined,
    loginQueries: [] as unknown[],
    exitCode: undefined as number | undefined,
    quitCalls: 0,
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    setPath(name: string, p: string) {
      app.paths.set(name, p);
    },
    getPath: (name: string) => app.paths.get(name) ?? '/nowhere',
    getAppPath: () => '/src/sluice',
    getVersion: () => '0.1.0',
    setAppUserModelId(id: string) {
      app.aumid = id;
    },
    getLoginItemSettings(o?: unknown) {
      app.loginQueries.push(o);
      return { openAtLogin: false, wasOpenedAtLogin: false };
    },
    setLoginItemSettings(): void {},
    exit(code: number) {
      app.exitCode = code;
    },
    quit() {
      app.quitCalls++;
    },
  });
  const menus: unknown[] = [];
  const errorBoxes: string[] = [];
  return {
    app,
    BrowserWindow,
    Notification,
    Tray,
    menus,
    errorBoxes,
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (m: unknown) => void menus.push(m) },
    nativeImage: {
      createFromPath: (p: string) => {
        const image = {
          path: p,
          template: false,
          setTemplateImage: (v: boolean) => void (image.template = v),
          resize: () => image,
        };
        return image;
      },
    },
    dialog: { showErrorBox: (_t: string, m: string) => void errorBoxes.push(m) },
    safeStorage: {
      isAsyncEncryptionAvailable: async () => false,
      encryptStringAsync: async () => Buffer.alloc(0),
      decryptStringAsync: async () => ({ result: '', shouldReEncrypt: false }),
    },
    ipcMain: {
      handlers: new Map<string, (event: unknown, raw: unknown) => unknown>(),
      handle(channel: string, h: (event: unknown, raw: unknown) => unknown) {
        this.handlers.set(channel, h);
      },
      removeHandler(channel: string) {
        this.handlers.delete(channel);
      },
    },
    protocol: { registerSchemesAsPrivileged(): void {}, handle(): void {} },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived(): void {} },
        setPermissionRequestHandler(): void {},
        setPermissionCheckHandler(): void {},
      },
    },
    net: {},
    shell: {},
  };
});
vi.mock('electron', () => electron);

// The OS keychain, locked until the test unlocks it (a login start before the keyring is open).
const keychain = vi.hoisted(() => ({ locked: true, secrets: new Map<string, string>() }));
vi.mock('../../main/adapters/store/secrets/keychain.js', async (importOriginal) => {
  const real = await importOriginal<typeof KeychainModule>();
  const store: SecretStore = {
    kind: 'keytar',
    get: async (n) => {
      if (keychain.locked) throw new real.KeychainError('locked', 'The system keychain is locked.');
      return keychain.secrets.get(n) ?? null;
    },
    set: async (n, v) => void keychain.secrets.set(n, v),
    delete: async (n) => keychain.secrets.delete(n),
  };
  return { ...real, keytarStore: () => store };
});

const KEY = 'k-live';
let root: string;
let sandbox: Sandbox;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'sluice-shell-'));
  sandbox = await startSandbox({ apiKey: KEY });
  keychain.locked = true;
  keychain.secrets.clear();
  electron.BrowserWindow.all.length = 0;
  electron.Notification.shown.length = 0;
  electron.Tray.all.length = 0;
  electron.menus.length = 0;
  electron.errorBoxes.length = 0;
  Object.assign(electron.app, { isPackaged: true, aumid: undefined, exitCode: undefined, quitCalls: 0 });
  electron.app.loginQueries.length = 0;
});

afterEach(async () => {
  if (electron.app.listenerCount('will-quit') > 0) {
    // Quit as the OS would, so the runtime closes and releases its lock.
    electron.app.emit('before-quit');
    electron.app.emit('will-quit', { preventDefault: () => undefined });
    await vi.waitFor(() => expect(electron.app.quitCalls).toBeGreaterThan(0));
  }
  electron.app.removeAllListeners();
  vi.restoreAllMocks();
  await sandbox.close();
  await rm(root, { recursive: true, force: true });
});

const stateDir = () => path.join(root, 'Sluice');
// APPDATA for Windows; macOS's folder is under the home directory, so its tests name the folder.
const env = (): NodeJS.ProcessEnv => ({ XDG_CONFIG_HOME: root, APPDATA: root, XDG_CURRENT_DESKTOP: 'KDE' });

/** The user chose a real service (the sandbox's URL stands in for it). */
function chooseService(dir = stateDir()): void {
  new SettingsStore(dir).update((s) => ({
    ...s,
    connection: { mode: 'custom', auth: 'apiKey', baseUrl: sandbox.url, urls: {} },
  }));
}

const shellOptions = (extra: Partial<Parameters<typeof runShell>[0]> = {}) => ({
  preload: '/app/preload/index.cjs',
  renderer: '/app/renderer',
  tray: { png: '/r/icon.png', template: '/r/trayTemplate.png', ico: '/r/icon.ico' },
  env: env(),
  platform: 'linux' as const,
  argv: ['electron', '.'],
  ...extra,
});

describe('the desktop shell', () => {
  it('opens without a key: the window comes up, the queue waits for credentials, no error box', async () => {
    chooseService();
    const opened = vi.spyOn(Runtime, 'open');
    await runShell(shellOptions()).started;
    expect(electron.errorBoxes).toEqual([]);
    expect(electron.app.exitCode).toBeUndefined();
    expect(electron.BrowserWindow.all).toHaveLength(1);
    const rt = await opened.mock.results[0]?.value;
    expect(rt.connection.credentialsMissing).toBe(true);
    expect(rt.queue.pauseState?.reason).toBe('credentials');
  });

  it('looks in the keychain again, and connects once it is unlocked', async () => {
    chooseService();
    keychain.secrets.set('api-key', KEY);
    const opened = vi.spyOn(Runtime, 'open');
    const now = vi.spyOn(Date, 'now');
    await runShell(shellOptions({ credentialsRetryMs: 20 })).started;
    const rt = await opened.mock.results[0]?.value;
    expect(rt.connection.credentialsMissing).toBe(true);
    keychain.locked = false; // the user logged in; the keyring is open
    now.mockReturnValue(Date.now() + 60_000); // past the vault's own retry interval
    await vi.waitFor(() => expect(rt.connection.credentialsMissing).toBe(false), { timeout: 3000 });
    expect(rt.queue.pauseState).toBeUndefined();
    // The page says it is ready (its listeners are attached), as the renderer does at start.
    await electron.ipcMain.handlers.get('app:ready')?.(
      { senderFrame: { parent: null, url: 'sluice://app/' } },
      undefined,
    );
    const sent = electron.BrowserWindow.all[0]?.webContents.sent as Array<{ name: string }>;
    await vi.waitFor(() => expect(sent.map((e) => e.name)).toContain('connection:changed'));
  });

  it('shows the window before the watch folders are set up, and never opens a second one', async () => {
    let foldersReady!: () => void;
    vi.spyOn(Runtime.prototype, 'start').mockImplementation(() => new Promise<void>((r) => (foldersReady = r)));
    const shell = runShell(shellOptions());
    await vi.waitFor(() => expect(electron.BrowserWindow.all).toHaveLength(1));
    expect(electron.Tray.all).toHaveLength(1);
    // A relaunch (second-instance) and a macOS activate while the folders are still being set up.
    electron.app.emit('second-instance');
    electron.app.emit('activate');
    foldersReady();
    await shell.started;
    electron.app.emit('second-instance');
    expect(electron.BrowserWindow.all).toHaveLength(1);
    expect(electron.BrowserWindow.all[0]?.visible).toBe(true);
  });

  it('shows the window of a --hidden start when Sluice is launched again while it opens', async () => {
    let opened!: () => void;
    const gate = new Promise<void>((r) => (opened = r));
    const realOpen = Runtime.open.bind(Runtime);
    vi.spyOn(Runtime, 'open').mockImplementation(async (opts) => {
      await gate;
      return realOpen(opts);
    });
    const shell = runShell(shellOptions({ argv: ['sluice', '--hidden'] }));
    await new Promise((r) => setTimeout(r, 20));
    electron.app.emit('second-instance'); // no window yet: the runtime is still opening
    expect(electron.BrowserWindow.all).toHaveLength(0);
    opened();
    await shell.started;
    expect(electron.BrowserWindow.all).toHaveLength(1);
    expect(electron.BrowserWindow.all[0]?.options).toMatchObject({ show: false });
    // createMainWindow shows a window asked to be shown once it is ready to show.
    expect(electron.BrowserWindow.all[0]?.listenerCount('ready-to-show')).toBe(1);
  });

  it("uses the CLI's state folder, adopting the older lower-case one", async () => {
    const legacy = path.join(root, 'sluice');
    await mkdir(legacy);
    chooseService(legacy);
    await runShell(shellOptions()).started;
    expect(electron.app.getPath('userData')).toBe(stateDir());
    const saved = JSON.parse(await readFile(path.join(stateDir(), 'settings.json'), 'utf8'));
    expect(saved.settings.connection.mode).toBe('custom');
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(path.join(stateDir(), LOCK_FILE))).toBe(true);
  });

  it("on Windows: the installer's AppUserModelID, and the lock released when the session ends", async () => {
    await runShell(shellOptions({ platform: 'win32' })).started;
    expect(electron.app.aumid).toBe('app.sluice.desktop');
    expect(existsSync(path.join(stateDir(), LOCK_FILE))).toBe(true);
    electron.BrowserWindow.all[0]?.emit('session-end');
    expect(existsSync(path.join(stateDir(), LOCK_FILE))).toBe(false);
  });

  it('where no tray icon can be seen (stock GNOME), closing the window minimizes it instead of hiding it', async () => {
    await runShell(shellOptions({ env: { ...env(), XDG_CURRENT_DESKTOP: 'GNOME' } })).started;
    const w = electron.BrowserWindow.all[0];
    w?.show();
    expect(w?.userCloses()).toBe(true);
    expect(w?.minimized).toBe(true);
    expect(w?.visible).toBe(true);
  });

  it('keeps Reload and DevTools out of the packaged menu, and the tray image per platform', async () => {
    await runShell(shellOptions({ platform: 'darwin', env: { ...env(), SLUICE_STATE_DIR: stateDir() } })).started;
    const roles = (electron.menus[0] as Array<{ role: string }>).map((m) => m.role);
    expect(roles).toEqual(['appMenu', 'fileMenu', 'editMenu', 'windowMenu']);
    expect(electron.Tray.all[0]?.image).toMatchObject({ path: '/r/trayTemplate.png', template: true });
  });
});

describe('desktop decisions', () => {
  it('guesses where a tray icon is seen, and what closing the window does', () => {
    expect(trayLikelyVisible('linux', { XDG_CURRENT_DESKTOP: 'GNOME' })).toBe(false);
    expect(trayLikelyVisible('linux', { XDG_CURRENT_DESKTOP: 'ubuntu:GNOME' })).toBe(true);
    expect(trayLikelyVisible('linux', { XDG_CURRENT_DESKTOP: 'KDE' })).toBe(true);
    expect(trayLikelyVisible('win32', {})).toBe(true);
    expect(closeAction(true, 'linux', { XDG_CURRENT_DESKTOP: 'GNOME' })).toBe('minimize');
    expect(closeAction(false, 'win32', {})).toBe('minimize');
    expect(closeAction(true, 'darwin', {})).toBe('hide');
    expect(menuTemplate('linux', true).map((m) => m.role)).toContain('viewMenu');
    expect(menuTemplate('linux', false).map((m) => m.role)).not.toContain('viewMenu');
  });

  it('registers $APPIMAGE for a login start, not the temporary mount, and the app folder in development', () => {
    expect(
      autostartExec({
        execPath: '/tmp/.mount_SluiceAbc/sluice',
        env: { APPIMAGE: '/home/ada/Apps/Sluice.AppImage' },
        packaged: true,
        appPath: '/tmp/.mount_SluiceAbc/resources/app.asar',
      }),
    ).toBe('"/home/ada/Apps/Sluice.AppImage" --hidden');
    expect(autostartExec({ execPath: '/opt/Sluice/sluice', env: {}, packaged: true, appPath: '/x' })).toBe(
      '"/opt/Sluice/sluice" --hidden',
    );
    expect(
      autostartExec({
        execPath: '/src/node_modules/electron/dist/electron',
        env: {},
        packaged: false,
        appPath: '/src',
      }),
    ).toBe('"/src/node_modules/electron/dist/electron" "/src" --hidden');
    expect(LOGIN_ARGS).toEqual(['--hidden']);
  });

  it('reads "start at login" back on Windows with the arguments it was set with', () => {
    const port = electronPlatform({
      window: () => undefined,
      secrets: {} as Parameters<typeof electronPlatform>[0]['secrets'],
      rendererReady: () => undefined,
      platform: 'win32',
    });
    port.startAtLogin?.get();
    expect(electron.app.loginQueries).toEqual([{ args: ['--hidden'] }]);
  });

  it('holds each notification until it closes', async () => {
    vi.useFakeTimers();
    try {
      let sink: ((e: unknown) => void) | undefined;
      const events = {
        subscribe: (s: (e: unknown) => void) => {
          sink = s;
          return { ready: () => undefined, close: () => undefined };
        },
      } as unknown as EventHub;
      const clicked: string[] = [];
      const notices = startNotifications(events, (id) => clicked.push(id));
      sink?.({ name: 'job:updated', payload: { id: 'j1', fileName: 'a.wav', state: 'processing' } });
      sink?.({ name: 'job:updated', payload: { id: 'j1', fileName: 'a.wav', state: 'completed' } });
      await vi.advanceTimersByTimeAsync(5000);
      expect(electron.Notification.shown).toHaveLength(1);
      expect(notices.open).toBe(1);
      electron.Notification.shown[0]?.emit('click');
      expect(clicked).toEqual(['j1']);
      expect(notices.open).toBe(0);
      notices.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
