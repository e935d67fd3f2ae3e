// Shared by the benchmarks: a sandbox in its own process, medians, media files, formatting.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const KEY = 'bench-key';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const fmt = (n, digits = 2) => Number(n).toFixed(digits);

/** The sandbox in a child process, so what the engine does is measured apart from it. */
export async function sandboxProcess(env = {}) {
  const child = spawn(
    process.execPath,
    [path.join(root, 'bin/sluice.js'), 'sandbox', '--port', '0', '--api-key', KEY],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const auth = { authorization: `Basic ${KEY}` };
  return {
    url,
    async stats() {
      const r = await fetch(`${url}/sandbox/admin/stats`, { headers: auth });
      return r.json();
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** Total requests served, admin endpoints excluded. */
export function requestCount(stats) {
  return Object.entries(stats)
    .filter(([k]) => !k.startsWith('admin'))
    .reduce((n, [, v]) => n + v, 0);
}

/** A short mono 16-bit WAV (silence plus a click so each file differs), written without tools. */
export function writeWav(file, seconds, seed) {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVEfmt ', 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(samples * 2, 40);
  // The seed goes into the samples whole (two 16-bit samples), so every seed is its own content:
  // content identity would rightly take two equal files as one.
  buf.writeUInt32LE(seed + 1, 44);
  writeFileSync(file, buf);
}
