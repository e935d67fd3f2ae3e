#!/usr/bin/env node
// `npm start`: the desktop app when Electron can run on this machine; otherwise the same app in the
// browser through `sluice serve --open`, with one line saying why. Electron ≥ 42 downloads its
// binary on first run: the download shows its progress and a partial one is kept and resumed next
// time. Where Chromium's sandbox cannot start (Ubuntu 24.04+ restricts unprivileged user
// namespaces, and node_modules' chrome-sandbox is not root-owned setuid), Electron aborts at launch:
// that is recognised and the browser interface opens instead. Builds what is missing first.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** What Chromium prints when its sandbox cannot start (SUID helper not set up, no user namespaces). */
const SANDBOX_FAILURE =
  /SUID sandbox helper binary was found, but is not configured correctly|No usable sandbox!|Failed to move to new namespace|setuid sandbox/i;

export function sandboxFailed(stderr) {
  return SANDBOX_FAILURE.test(stderr);
}

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

/**
 * Downloads `url` to `dest`, resuming `dest.partial` with a Range request when a previous attempt
 * stopped midway. `onProgress(received, total)` is called as bytes arrive.
 */
export async function downloadResumable(url, dest, { onProgress = () => undefined, fetchImpl = fetch } = {}) {
  const part = `${dest}.partial`;
  mkdirSync(path.dirname(dest), { recursive: true });
  const have = existsSync(part) ? statSync(part).size : 0;
  const res = await fetchImpl(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {}, redirect: 'follow' });
  if (res.status === 416 && have > 0) {
    // The partial file already holds every byte.
    renameSync(part, dest);
    return dest;
  }
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}.`);
  const resumed = res.status === 206 && have > 0;
  const length = Number(res.headers.get('content-length') ?? NaN);
  let received = resumed ? have : 0;
  const total = Number.isFinite(length) ? received + length : undefined;
  // Written chunk by chunk, and flushed even when the connection drops: what arrived is kept.
  const out = createWriteStream(part, { flags: resumed ? 'a' : 'w' });
  try {
    for await (const chunk of Readable.fromWeb(res.body)) {
      received += chunk.length;
      if (!out.write(chunk)) await once(out, 'drain');
      onProgress(received, total);
    }
  } finally {
    out.end();
    await finished(out);
  }
  if (total !== undefined && received !== total) throw new Error(`${url} ended early (${received} of ${total} bytes).`);
  renameSync(part, dest);
  return dest;
}

/** Where @electron/get looks for the zip it would download (its cache layout), and from where. */
async function electronZip() {
  const { version } = JSON.parse(readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8'));
  const { getHostArch } = await import('@electron/get');
  const envPaths = (await import('env-paths')).default;
  const platform = process.env.ELECTRON_INSTALL_PLATFORM || process.env.npm_config_platform || process.platform;
  const arch = process.env.ELECTRON_INSTALL_ARCH || process.env.npm_config_arch || getHostArch();
  const mirror =
    process.env.ELECTRON_MIRROR ||
    process.env.npm_config_electron_mirror ||
    'https://github.com/electron/electron/releases/download/';
  const dir = (process.env.ELECTRON_CUSTOM_DIR || `v${version}`).replace('{{ version }}', version);
  const file = `electron-v${version}-${platform}-${arch}.zip`;
  const url = `${mirror.endsWith('/') ? mirror : `${mirror}/`}${dir}/${file}`;
  const folder = new URL(url);
  folder.pathname = path.posix.dirname(folder.pathname);
  const cacheRoot = process.env.electron_config_cache || envPaths('electron', { suffix: '' }).cache;
  const hash = createHash('sha256').update(folder.toString()).digest('hex');
  return { url, dest: path.resolve(cacheRoot, hash, file) };
}

function progressLine(received, total) {
  const mb = (n) => (n / 1e6).toFixed(1);
  const text = total
    ? `${mb(received)} of ${mb(total)} MB (${Math.floor((received / total) * 100)} %)`
    : `${mb(received)} MB`;
  if (process.stdout.isTTY) process.stdout.write(`\r  ${text}   `);
}

/** Fetches the Electron binary into @electron/get's cache (resumable), then lets Electron install it. */
async function downloadElectron() {
  const installer = path.join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return;
  console.log('Downloading Electron for this machine (first start only; an interrupted download resumes)…');
  try {
    const { url, dest } = await electronZip();
    if (!existsSync(dest)) {
      let last = 0;
      await downloadResumable(url, dest, {
        onProgress: (received, total) => {
          if (Date.now() - last < 250 && received !== total) return;
          last = Date.now();
          progressLine(received, total);
        },
      });
      if (process.stdout.isTTY) process.stdout.write('\n');
    }
  } catch (e) {
    if (process.stdout.isTTY) process.stdout.write('\n');
    console.log(`The download stopped (${e instanceof Error ? e.message : String(e)}); what arrived is kept.`);
    return;
  }
  // Checks the zip against Electron's checksums and unpacks it; a bad zip is dropped for a fresh try.
  const r = spawnSync(process.execPath, [installer], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    const { dest } = await electronZip();
    rmSync(dest, { force: true });
  }
}

function openInBrowser(args, why) {
  console.log(`${why}: opening Sluice in your browser instead.`);
  return spawn(process.execPath, [path.join(root, 'bin', 'sluice.js'), 'serve', '--open', ...args], {
    cwd: root,
    stdio: 'inherit',
  });
}

/** Runs Electron; stderr is shown as it comes and kept, to recognise a sandbox that cannot start. */
export function runElectron(electron, args, onExit) {
  const child = spawn(electron, [root, ...args], { cwd: root, stdio: ['inherit', 'inherit', 'pipe'] });
  let tail = '';
  child.stderr.on('data', (b) => {
    process.stderr.write(b);
    tail = (tail + b.toString()).slice(-65536);
  });
  child.on('exit', (code, signal) => onExit(code, signal, tail));
  return child;
}

async function main() {
  const args = process.argv.slice(2);
  build('build:main', 'dist/cli/sluice.js');
  build('build:renderer', 'dist/renderer/index.html');

  let electron = electronBinary();
  if (!electron && !process.env.SLUICE_NO_ELECTRON) {
    await downloadElectron();
    electron = electronBinary();
  }
  let child;
  const follow = (c) => {
    child = c;
    c.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child?.kill(signal));
  if (!electron) {
    follow(openInBrowser(args, 'Electron could not be downloaded on this machine (offline or blocked)'));
    return;
  }
  build('build:preload', 'dist/preload/index.cjs');
  child = runElectron(electron, args, (code, signal, stderr) => {
    if ((code !== 0 || signal) && sandboxFailed(stderr)) {
      follow(
        openInBrowser(
          args,
          "Electron's sandbox cannot start here (Ubuntu 24.04+ restricts user namespaces; README, Desktop app, says how to allow it)",
        ),
      );
    } else process.exit(code ?? (signal ? 1 : 0));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
