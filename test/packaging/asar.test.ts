// Packaging, offline: `electron-builder --dir` with a stand-in Electron (feasibility §1), then the
// asar is checked: built main, preload and renderer in; sources, tests, source maps and dev
// dependencies out; keytar unpacked. Skip it with SLUICE_SKIP_PACKAGING=1 for quick local runs.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listPackage } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const skip = process.env.SLUICE_SKIP_PACKAGING ? 'SLUICE_SKIP_PACKAGING is set' : undefined;
if (skip) console.warn(`packaging test skipped: ${skip}`);

function npmRun(script: string): void {
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run ${script} failed:\n${r.stdout}\n${r.stderr}`);
}

describe.skipIf(skip !== undefined)(`packaging${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const work = mkdtempSync(path.join(tmpdir(), 'sluice-pack-'));
  const out = path.join(work, 'release');
  let entries: string[] = [];
  let resources = '';

  beforeAll(() => {
    if (!existsSync(path.join(root, 'dist/main/index.js'))) npmRun('build:main');
    if (!existsSync(path.join(root, 'dist/preload/index.cjs'))) npmRun('build:preload');
    if (!existsSync(path.join(root, 'dist/renderer/index.html'))) npmRun('build:renderer');
    const fake = path.join(work, 'electron-dist');
    mkdirSync(fake);
    writeFileSync(path.join(fake, 'electron'), '#!/bin/sh\necho stand-in electron\n');
    chmodSync(path.join(fake, 'electron'), 0o755);
    writeFileSync(path.join(fake, 'version'), '45.4.1');
    writeFileSync(path.join(fake, 'LICENSE'), 'stand-in');
    const r = spawnSync(
      path.join(root, 'node_modules', '.bin', 'electron-builder'),
      ['--dir', '--linux', '--publish', 'never', `-c.electronDist=${fake}`, `-c.directories.output=${out}`],
      { cwd: root, encoding: 'utf8', env: { ...process.env, CI: '1' }, timeout: 110_000 },
    );
    if (r.status !== 0) throw new Error(`electron-builder failed:\n${r.stdout}\n${r.stderr}`);
    resources = path.join(out, 'linux-unpacked', 'resources');
    entries = listPackage(path.join(resources, 'app.asar'), { isPack: false }).map((e) => e.replaceAll('\\', '/'));
  }, 120_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('holds the built main, preload and renderer', () => {
    for (const f of [
      '/package.json',
      '/dist/main/index.js',
      '/dist/main/runtime/runtime.js',
      '/dist/main/ipc/handlers.js',
      '/dist/preload/index.cjs',
      '/dist/preload/contract.js',
      '/dist/renderer/index.html',
      '/resources/icon.png',
    ]) {
      expect(entries, f).toContain(f);
    }
    for (const dep of ['fastify', 'zod', 'chokidar', 'conf'])
      expect(entries).toContain(`/node_modules/${dep}/package.json`);
  });

  it('leaves out sources, tests, source maps and dev dependencies', () => {
    const own = entries.filter((e) => !e.startsWith('/node_modules/'));
    expect(own.filter((e) => /\.ts$/.test(e) && !e.endsWith('.d.ts'))).toEqual([]);
    expect(own.filter((e) => e.startsWith('/test') || e.startsWith('/main/') || e.startsWith('/renderer/'))).toEqual(
      [],
    );
    expect(entries.filter((e) => e.endsWith('.map') && !e.startsWith('/node_modules/'))).toEqual([]);
    for (const dev of [
      'electron',
      'electron-builder',
      'vitest',
      'vite',
      'typescript',
      'eslint',
      'prettier',
      'fast-check',
    ]) {
      expect(entries, dev).not.toContain(`/node_modules/${dev}/package.json`);
    }
  });

  it('unpacks keytar (a native module cannot load from inside the asar)', () => {
    expect(existsSync(path.join(resources, 'app.asar.unpacked', 'node_modules', 'keytar', 'package.json'))).toBe(true);
  });
});
