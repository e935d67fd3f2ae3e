// What the desktop around Sluice offers, decided from the platform and environment alone (no
// Electron), so the shell's choices can be tested: whether a tray icon will be seen, what closing the
// window does, and the menu.
import type { MenuItemConstructorOptions } from 'electron';

/** Windows' AppUserModelID: the one the installer stamps on the shortcut (electron-builder's appId). */
export const APP_USER_MODEL_ID = 'app.sluice.desktop';

/**
 * Linux shows tray icons only where a StatusNotifierItem host runs. Stock GNOME Shell (Fedora,
 * Debian) has none; Ubuntu's GNOME ships the AppIndicator extension, and KDE, XFCE, Cinnamon and
 * others have a host. Electron cannot tell whether the icon is shown, so this is a best guess.
 */
export function trayLikelyVisible(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform !== 'linux') return true;
  const desktop = env.XDG_CURRENT_DESKTOP ?? '';
  return !(/gnome/i.test(desktop) && !/ubuntu|unity|pop/i.test(desktop));
}

/**
 * Closing the window hides it to the tray where the tray can be seen; elsewhere the window is only
 * minimized, so Sluice stays on the taskbar or dock instead of vanishing while it keeps working.
 */
export function closeAction(hasTray: boolean, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): 'hide' | 'minimize' {
  return hasTray && trayLikelyVisible(platform, env) ? 'hide' : 'minimize';
}

/** The application menu: editing and window roles always; Reload and DevTools only in development. */
export function menuTemplate(platform: NodeJS.Platform, development: boolean): MenuItemConstructorOptions[] {
  const menu: MenuItemConstructorOptions[] = [];
  if (platform === 'darwin') menu.push({ role: 'appMenu' });
  menu.push({ role: 'fileMenu' }, { role: 'editMenu' });
  if (development) menu.push({ role: 'viewMenu' });
  menu.push({ role: 'windowMenu' });
  return menu;
}
