// Opening a file, a folder or a URL with the desktop's own handler, without Electron: used by the
// web bridge (its server runs on the user's machine) and by `sluice serve --open`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { notSupported } from '../errors.js';

/** True where a graphical session can show something (always on macOS and Windows). */
export function hasDesktop(env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

function command(target: string, reveal: boolean): [string, string[]] {
  if (process.platform === 'darwin') return ['open', reveal ? ['-R', target] : [target]];
  if (process.platform === 'win32') {
    return reveal ? ['explorer.exe', [`/select,${target}`]] : ['cmd', ['/c', 'start', '""', target]];
  }
  // Linux file managers have no common "select this file" call: open its folder.
  return ['xdg-open', [reveal ? path.dirname(target) : target]];
}

/** Starts the handler and resolves once it launched; rejects when none can be started. */
export function openWithSystem(target: string, opts: { reveal?: boolean } = {}): Promise<void> {
  if (!hasDesktop()) {
    return Promise.reject(
      notSupported(`There is no desktop session on this machine to open ${target}; open it yourself.`),
    );
  }
  const [cmd, args] = command(target, opts.reveal === true);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
    child.once('error', (e) => reject(notSupported(`Could not start ${cmd} to open ${target} (${e.message}).`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
