import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsStore, SettingsValidationError } from '../../../../main/adapters/store/state/settings-store.js';
import { DEFAULT_TEMPLATE_ID } from '../../../../main/service/templates.js';
import { WATCH_FOLDER } from '../../../../main/engine/settings.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-settings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SettingsStore', () => {
  it('starts from the defaults: sandbox connection, concurrency 2, settle 2 s', () => {
    const s = new SettingsStore(dir).get();
    expect(s.connection).toEqual({ mode: 'sandbox' });
    expect(s.queue.uploadConcurrency).toBe(2);
    expect(s.queue.settleMs).toBe(2000);
    expect(s.defaults.templateId).toBe(DEFAULT_TEMPLATE_ID);
  });

  it('shares the saved settings without copying them, and a save replaces rather than changes them', () => {
    const a = new SettingsStore(dir);
    const before = a.current();
    expect(a.current()).toBe(before);
    a.update((s) => ({ ...s, queue: { ...s.queue, uploadConcurrency: 4 } }));
    expect(a.current().queue.uploadConcurrency).toBe(4);
    expect(before.queue.uploadConcurrency).toBe(2);
    // What a reader changes in a copy from get() never reaches the shared settings.
    a.get().queue.uploadConcurrency = 7;
    expect(a.current().queue.uploadConcurrency).toBe(4);
  });

  it('persists a valid change across instances', () => {
    const a = new SettingsStore(dir);
    a.update((s) => ({ ...s, queue: { ...s.queue, uploadConcurrency: 4 } }));
    expect(new SettingsStore(dir).get().queue.uploadConcurrency).toBe(4);
  });

  it('rejects an invalid change as a whole, naming the field, and keeps the old file', async () => {
    const a = new SettingsStore(dir);
    a.update((s) => ({ ...s, queue: { ...s.queue, uploadConcurrency: 3 } }));
    const before = await readFile(a.path, 'utf8');
    let err: unknown;
    try {
      a.update((s) => ({
        ...s,
        queue: { ...s.queue, uploadConcurrency: 0 },
        connection: { mode: 'custom', auth: 'apiKey', baseUrl: 'ftp://x', urls: {} },
      }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsValidationError);
    const issues = (err as SettingsValidationError).issues.join('\n');
    expect(issues).toMatch(/queue\.uploadConcurrency/);
    expect(issues).toMatch(/connection\.baseUrl/);
    expect(await readFile(a.path, 'utf8')).toBe(before);
    expect(a.get().queue.uploadConcurrency).toBe(3);
  });

  it('falls back to defaults when the file was damaged by hand', async () => {
    const a = new SettingsStore(dir);
    await writeFile(a.path, JSON.stringify({ settings: { queue: { uploadConcurrency: 'many' } } }));
    expect(new SettingsStore(dir).get().queue.uploadConcurrency).toBe(2);
  });

  it('keeps the rest of the settings when one value is refused: a pattern an older version took goes back to {name}', async () => {
    const a = new SettingsStore(dir);
    a.update((s) => ({
      ...s,
      queue: { ...s.queue, uploadConcurrency: 5 },
      watchFolders: [{ ...WATCH_FOLDER.parse({ id: 'w1', path: dir }) }],
    }));
    const saved = JSON.parse(await readFile(a.path, 'utf8')) as {
      settings: { watchFolders: Array<{ output?: object }> };
    };
    const folder = saved.settings.watchFolders[0]!;
    folder.output = { ...folder.output, pattern: '../../elsewhere/{name}' };
    await writeFile(a.path, JSON.stringify(saved));
    const b = new SettingsStore(dir);
    expect(b.get().queue.uploadConcurrency).toBe(5);
    expect(b.get().watchFolders.map((f) => f.id)).toEqual(['w1']);
    expect(b.get().watchFolders[0]!.output.pattern).toBe('{name}');
    const kept = JSON.parse(await readFile(a.path, 'utf8')) as { settingsDamaged: typeof saved.settings };
    expect(kept.settingsDamaged.watchFolders[0]).toMatchObject({ output: { pattern: '../../elsewhere/{name}' } });
  });
});
