// The PlatformPort of the desktop app: native dialogs, the shell, start at login.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { app, dialog, shell, type BrowserWindow } from 'electron';
import { xdgConfigHome } from '../adapters/store/state/state-dir.js';
import { MEDIA_EXTENSIONS } from '../engine/media-types.js';
import { BridgeFailure } from '../ipc/errors.js';
import type { PlatformPort, SecretVault } from '../ipc/platform.js';

export interface ElectronPlatformDeps {
  window(): BrowserWindow | undefined;
  secrets: SecretVault;
  rendererReady(): void;
  platform?: NodeJS.Platform;
}

/** What a login start runs: Windows gets --hidden (macOS reports wasOpenedAtLogin instead). */
export const LOGIN_ARGS = ['--hidden'];

// Linux has no login-item API in Electron: the XDG autostart entry is the standard way.
export const autostartFile = (env: NodeJS.ProcessEnv = process.env): string =>
  path.join(xdgConfigHome(env), 'autostart', 'sluice.desktop');

/**
 * The command the Linux autostart entry runs. An AppImage runs from a temporary mount that is gone
 * after exit: the entry must start `$APPIMAGE` itself. A development run starts Electron with the app
 * folder (Electron alone would show its default app).
 */
export function autostartExec(o: {
  execPath: string;
  env: NodeJS.ProcessEnv;
  packaged: boolean;
  appPath: string;
}): string {
  const q = (s: string): string => `"${s.replace(/(["`$\\])/g, '\\$1')}"`;
  if (o.env.APPIMAGE) return `${q(o.env.APPIMAGE)} --hidden`;
  if (!o.packaged) return `${q(o.execPath)} ${q(o.appPath)} --hidden`;
  return `${q(o.execPath)} --hidden`;
}

function startAtLogin(platform: NodeJS.Platform): NonNullable<PlatformPort['startAtLogin']> {
  if (platform === 'linux') {
    return {
      get: () => existsSync(autostartFile()),
      set: (enabled) => {
        const file = autostartFile();
        if (!enabled) return rmSync(file, { force: true });
        mkdirSync(path.dirname(file), { recursive: true });
        const exec = autostartExec({
          execPath: process.execPath,
          env: process.env,
          packaged: app.isPackaged,
          appPath: app.getAppPath(),
        });
        writeFileSync(
          file,
          `[Desktop Entry]\nType=Application\nName=Sluice\nExec=${exec}\nX-GNOME-Autostart-enabled=true\n`,
        );
      },
    };
  }
  // Windows matches a login item by path and arguments: read it back with the ones it was set with.
  const args = platform === 'win32' ? { args: LOGIN_ARGS } : {};
  return {
    get: () => app.getLoginItemSettings(args).openAtLogin,
    set: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, ...args }),
  };
}

export function electronPlatform(d: ElectronPlatformDeps): PlatformPort {
  // Modal to the window when there is one (it may be closed to the tray).
  const showOpenDialog = (opts: Electron.OpenDialogOptions) => {
    const w = d.window();
    return w ? dialog.showOpenDialog(w, opts) : dialog.showOpenDialog(opts);
  };
  return {
    kind: 'electron',
    version: app.getVersion(),
    secrets: d.secrets,
    pickFiles: async () => {
      const r = await showOpenDialog({
        title: 'Add files to the queue',
        properties: ['openFile', 'multiSelections'],
        // Windows and macOS match extensions in any case. On Linux, Electron gives GTK a lower- and
        // an upper-case pattern for each (electron/electron#33918), so GX010234.MP4 shows as well
        // as clip.mp4; a mixed-case name (Clip.Mp4) is reached through "All files".
        filters: [
          { name: 'Audio and video', extensions: [...MEDIA_EXTENSIONS] },
          { name: 'All files', extensions: ['*'] },
        ],
      });
      return { canceled: r.canceled, paths: r.filePaths };
    },
    pickFolder: async () => {
      const r = await showOpenDialog({ title: 'Watch a folder', properties: ['openDirectory', 'createDirectory'] });
      return r.canceled || !r.filePaths[0] ? { canceled: true } : { canceled: false, path: r.filePaths[0] };
    },
    openPath: async (p) => {
      const problem = await shell.openPath(p);
      if (problem) throw new BridgeFailure('FILESYSTEM', `${p} could not be opened: ${problem}`);
    },
    revealPath: async (p) => shell.showItemInFolder(p),
    startAtLogin: startAtLogin(d.platform ?? process.platform),
    rendererReady: () => d.rendererReady(),
  };
}
