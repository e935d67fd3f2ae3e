import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsStore, SettingsValidationError } from '../../../main/adapters/store/settings-store.js';
import { DEFAULT_TEMPLATE_ID } from '../../../main/service/templates.js';

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
});
