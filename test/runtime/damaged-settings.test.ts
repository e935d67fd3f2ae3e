// A runtime opened on a settings file that does not parse starts on the defaults instead of
// refusing to start; the file is kept aside, and the app says so (app:info) naming both files.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBridge } from '../../main/ipc/handlers.js';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
import { value } from '../helpers/result.js';
import { closeRuntimes, openRuntime } from '../helpers/runtime.js';

let dir: string;
let stateDir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-damaged-settings-'));
  stateDir = path.join(dir, 'state');
  await mkdir(stateDir);
});
afterEach(async () => {
  await closeRuntimes();
  await rm(dir, { recursive: true, force: true });
});

describe('damaged settings at start', () => {
  it('a file cut mid-object: the runtime opens on defaults, keeps the file, and app:info names both', async () => {
    const cut = '{\n\t"settings": {\n\t\t"queue": {\n\t\t\t"uploadConcurrency": 4,\n\t\t\t"settl';
    await writeFile(path.join(stateDir, 'settings.json'), cut);
    const rt = await openRuntime({ stateDir });
    expect(rt.settings.get().queue.uploadConcurrency).toBe(2);
    const aside = (await readdir(stateDir)).filter((n) => n.startsWith('settings.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(path.join(stateDir, aside[0]!), 'utf8')).toBe(cut);

    const bridge = createBridge(rt, {
      kind: 'web',
      version: '0.0.0-test',
      secrets: memoryVault(),
      openPath: async () => undefined,
      revealPath: async () => undefined,
    });
    try {
      const info = value(await bridge.handlers['app:info']({}));
      expect(info.settingsSetAside).toContain(path.join(stateDir, 'settings.json'));
      expect(info.settingsSetAside).toContain(path.join(stateDir, aside[0]!));
      expect(info.settingsSetAside).toContain('default settings');
    } finally {
      bridge.close();
    }
  });

  it('a whole settings file: nothing set aside and app:info says nothing of it', async () => {
    const rt = await openRuntime({ stateDir });
    expect(rt.settings.setAside).toBeUndefined();
    const bridge = createBridge(rt, {
      kind: 'web',
      version: '0.0.0-test',
      secrets: memoryVault(),
      openPath: async () => undefined,
      revealPath: async () => undefined,
    });
    try {
      expect(value(await bridge.handlers['app:info']({})).settingsSetAside).toBeUndefined();
    } finally {
      bridge.close();
    }
  });
});
