// The tray icon: what the queue is doing at a glance, and pause/resume, open and quit. Closing the
// window leaves Sluice running here (watch folders keep working).
import { Menu, Tray, nativeImage } from 'electron';
import type { QueueStats } from '../../preload/contract.js';
import { trayStatus } from './tray-status.js';

export interface TrayActions {
  open(): void;
  pause(): void;
  resume(): void;
  quit(): void;
}

/** The tray image per platform: a template image on macOS, an ICO on Windows, a PNG on Linux. */
export interface TrayIcons {
  png: string;
  /** Black on transparent, named *Template.png (with an @2x beside it) so macOS tints it for the menu bar. */
  template: string;
  ico: string;
}

export function trayImage(icons: TrayIcons, platform: NodeJS.Platform): Electron.NativeImage {
  if (platform === 'darwin') {
    const image = nativeImage.createFromPath(icons.template);
    image.setTemplateImage(true);
    return image;
  }
  if (platform === 'win32') return nativeImage.createFromPath(icons.ico);
  return nativeImage.createFromPath(icons.png).resize({ width: 22, height: 22 });
}

export class AppTray {
  private readonly tray: Tray;
  private last = '';

  constructor(
    icons: TrayIcons,
    platform: NodeJS.Platform,
    private readonly actions: TrayActions,
  ) {
    this.tray = new Tray(trayImage(icons, platform));
    this.tray.setToolTip('Sluice');
    this.tray.on('click', () => actions.open());
  }

  update(stats: QueueStats): void {
    const { status, label } = trayStatus(stats);
    const paused = stats.pause !== undefined;
    const key = `${status}|${label}|${paused}`;
    if (key === this.last) return;
    this.last = key;
    this.tray.setToolTip(`Sluice: ${label}`);
    this.tray.setContextMenu(
      Menu.buildFromTemplate([
        { label, enabled: false },
        { type: 'separator' },
        paused
          ? { label: 'Resume', click: () => this.actions.resume() }
          : { label: 'Pause', click: () => this.actions.pause() },
        { label: 'Open Sluice', click: () => this.actions.open() },
        { type: 'separator' },
        { label: 'Quit Sluice', click: () => this.actions.quit() },
      ]),
    );
  }

  destroy(): void {
    this.tray.destroy();
  }
}
