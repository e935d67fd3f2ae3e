#!/usr/bin/env node
// `npm start`: the desktop app when the Electron binary is on this machine; otherwise the same app
// in the browser through `sluice serve --open` (Electron ≥ 42 downloads its binary on first run,
// which fails offline or behind a proxy). Builds what is missing first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function electronBinary() {
  const dir = path.join(root, 'node_modules', 'electron');
  const pathTxt = path.join(dir, 'path.txt');
  if (!existsSync(pathTxt)) return undefined;
  const bin = path.join(dir, 'dist', readFileSync(pathTxt, 'utf8').trim());
  return existsSync(bin) ? bin : undefined;
}

function build(script, output) {
  if (existsSync(path.join(root, output))) return;
  const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts ?? {};
  if (!scripts[script]) return;
  const r = spawnSync(npm, ['run', '--silent', script], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

build('build:main', 'dist/main/cli/index.js');
build('build:renderer', 'dist/renderer/index.html');

/** Electron ≥ 42 fetches its binary on first use: try once (a minute at most), quietly. */
function downloadElectron() {
  const installer = path.join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return;
  console.log('Downloading Electron for this machine (first start only)…');
  spawnSync(process.execPath, [installer], { cwd: root, stdio: 'ignore', timeout: 60_000 });
}

let electron = electronBinary();
if (!electron && !process.env.SLUICE_NO_ELECTRON) {
  downloadElectron();
  electron = electronBinary();
}
let child;
if (electron) {
  build('build:preload', 'dist/preload/index.cjs');
  child = spawn(electron, [root, ...args], { cwd: root, stdio: 'inherit' });
} else {
  console.log(
    'Electron could not be downloaded on this machine (offline or blocked): opening Sluice in your browser instead.',
  );
  child = spawn(process.execPath, [path.join(root, 'bin', 'sluice.js'), 'serve', '--open', ...args], {
    cwd: root,
    stdio: 'inherit',
  });
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
