// The CLI and the desktop app resolve one state folder, and the app's old lower-case folder moves once.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  adoptLegacyStateDir,
  defaultStateDir,
  xdgConfigHome,
} from '../../../../main/adapters/store/state/state-dir.js';
import { defaultStateDir as cliStateDir } from '../../../../main/cli/context.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'sluice-statedir-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('state folder', () => {
  it('is <appData>/Sluice on every OS, and the CLI uses the same resolver', () => {
    const home = '/home/ada';
    expect(defaultStateDir({ env: {}, platform: 'linux', home })).toBe('/home/ada/.config/Sluice');
    expect(defaultStateDir({ env: { XDG_CONFIG_HOME: '/x' }, platform: 'linux', home })).toBe('/x/Sluice');
    expect(defaultStateDir({ env: {}, platform: 'darwin', home })).toBe('/home/ada/Library/Application Support/Sluice');
    expect(defaultStateDir({ env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, platform: 'win32', home })).toMatch(
      /Roaming.Sluice$/,
    );
    expect(defaultStateDir({ env: { SLUICE_STATE_DIR: '/srv/s' }, platform: 'linux', home })).toBe('/srv/s');
    expect(cliStateDir).toBe(defaultStateDir);
  });

  it('treats an empty or relative XDG_CONFIG_HOME as unset', () => {
    const home = '/home/ada';
    expect(xdgConfigHome({ XDG_CONFIG_HOME: '' }, home)).toBe('/home/ada/.config');
    expect(xdgConfigHome({ XDG_CONFIG_HOME: 'rel/dir' }, home)).toBe('/home/ada/.config');
    expect(defaultStateDir({ env: { XDG_CONFIG_HOME: '' }, platform: 'linux', home })).toBe('/home/ada/.config/Sluice');
  });

  it("moves the desktop app's old lower-case folder once", async () => {
    const legacy = path.join(root, 'sluice');
    const dir = path.join(root, 'Sluice');
    await mkdir(legacy);
    await writeFile(path.join(legacy, 'settings.json'), '{"a":1}');
    // Case-insensitive file systems: the two names are one folder and nothing moves.
    const caseInsensitive = await readFile(path.join(dir, 'settings.json')).then(
      () => true,
      () => false,
    );
    if (caseInsensitive) {
      expect(adoptLegacyStateDir(dir).moved).toBe(false);
      return;
    }
    expect(adoptLegacyStateDir(dir)).toEqual({ moved: true });
    expect(await readFile(path.join(dir, 'settings.json'), 'utf8')).toBe('{"a":1}');
    expect(await readdir(root)).toEqual(['Sluice']);
    expect(adoptLegacyStateDir(dir)).toEqual({ moved: false });
  });

  it('leaves both folders alone when both exist, and one still locked by a live Sluice', async () => {
    const legacy = path.join(root, 'sluice');
    const dir = path.join(root, 'Sluice');
    await mkdir(legacy);
    await writeFile(path.join(legacy, 'engine.lock'), String(process.ppid));
    expect(adoptLegacyStateDir(dir).moved).toBe(false);
    expect(await readdir(root)).toEqual(['sluice']);
    await rm(path.join(legacy, 'engine.lock'));
    await mkdir(dir);
    const r = adoptLegacyStateDir(dir);
    expect(r.moved).toBe(false);
    expect(r.note).toMatch(/Both/);
    expect((await readdir(root)).sort()).toEqual(['Sluice', 'sluice']);
  });
});
