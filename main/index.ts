// Electron composition root: the paths of the built preload, renderer and icons, handed to the shell.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { app } from 'electron';
import { runShell } from './electron/shell.js';

const here = (rel: string): string => fileURLToPath(new URL(rel, import.meta.url));
const resource = (name: string): string | undefined =>
  [here(`../../resources/${name}`), here(`../renderer/${name}`)].find((p) => existsSync(p));

const icon = resource('icon.png');
runShell({
  preload: here('../preload/index.cjs'),
  renderer: here('../renderer/'),
  ...(icon ? { icon } : {}),
  ...(icon
    ? { tray: { png: icon, template: resource('trayTemplate.png') ?? icon, ico: resource('icon.ico') ?? icon } }
    : {}),
  // Development only: the renderer from Vite's dev server.
  ...(!app.isPackaged && process.env.SLUICE_RENDERER_URL ? { devServer: process.env.SLUICE_RENDERER_URL } : {}),
});
