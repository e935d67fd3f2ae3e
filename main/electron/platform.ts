// The PlatformPort of the desktop app: native dialogs, the shell, start at login.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { app, dialog, shell, type BrowserWindow } from 'electron';
import { MEDIA_EXTENSIONS } from '../engine/media-types.js';
import { BridgeFailure } from '../ipc/errors.js';
import type { PlatformPort, SecretVault } from '../ipc/platform.js';

export interface ElectronPlatformDeps {
  window(): BrowserWindow | undefined;
  secrets: SecretVault;
  rendererReady(): void;
}

// Linux has no login-item API in Electron: the XDG autostart entry is the standard way.
const autostartFile = () =>
  path.join(process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'autostart', 'sluice.desktop');

function startAtLogin(): NonNullable<PlatformPort['startAtLogin']> {
  if (process.platform === 'linux') {
    return {
      get: () => existsSync(autostartFile()),
      set: (enabled) => {
        const file = autostartFile();
        if (!enabled) return rmSync(file, { force: true });
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(
          file,
          `[Desktop Entry]\nType=Application\nName=Sluice\nExec="${process.execPath}" --hidden\nX-GNOME-Autostart-enabled=true\n`,
        );
      },
    };
  }
  return {
    get: () => app.getLoginItemSettings().openAtLogin,
    set: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, args: ['--hidden'] }),
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
    startAtLogin: startAtLogin(),
    rendererReady: () => d.rendererReady(),
  };
}
