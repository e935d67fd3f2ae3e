// The Settings and History screens' state classes, alone, over a real runtime on the embedded
// sandbox: a refused save keeps its messages by field; History's filters reach main's query.
import './browser-globals.js';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBridge } from '../../../renderer/src/lib/api.js';
import { history } from '../../../renderer/src/lib/state/history.svelte.js';
import { settings } from '../../../renderer/src/lib/state/settings.svelte.js';
import { makeToneWav } from '../../helpers/media.js';
import { until } from '../../ipc/helpers.js';
import { openBridgeEnv, type BridgeEnv } from './in-process-bridge.js';

let env: BridgeEnv;
beforeAll(async () => {
  env = await openBridgeEnv();
  useBridge(env.api);
  settings.subscribe();
  await settings.load();
});
afterAll(async () => env.close());

describe('settings state', () => {
  it('loads the settings and the template catalogue', () => {
    expect(settings.error).toBeNull();
    expect(settings.view?.connection).toBeDefined();
    expect(settings.templates.length).toBeGreaterThan(0);
  });

  it('keeps a refused folder’s message under its field, and adds a good one with its status', async () => {
    const refused = await settings.addFolder({ path: 'relative/folder' } as never);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(Object.keys(refused.errors).some((k) => k === 'path' || k === '')).toBe(true);
    const folder = path.join(env.dir, 'Card A');
    await mkdir(folder);
    const added = await settings.addFolder({ path: folder } as never);
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    await until(() => settings.status(added.value.id));
    await until(() => settings.folders.some((f) => f.path === folder));
  });
});

describe('history state', () => {
  it('lists what ran, and a search or a state filter narrows it as main answers', async () => {
    const [a, b] = await Promise.all([
      makeToneWav(env.dir, 'Interview Jürgen Köln.wav'.normalize('NFD'), 1),
      makeToneWav(env.dir, 'b-roll.wav', 1),
    ]);
    expect((await env.api.queue.add({ paths: [a, b] })).ok).toBe(true);
    for (let done = 0; done < 2;) {
      const snap = await env.api.queue.snapshot();
      done = snap.ok ? snap.value.jobs.filter((j) => j.state === 'completed').length : 0;
      await new Promise((r) => setTimeout(r, 50));
    }
    await history.reload();
    expect(history.error).toBeNull();
    expect(history.total).toBe(2);
    history.setFilters({ search: 'jurgen koln' });
    await until(() => !history.loading && history.total === 1);
    expect(history.entryAt(0)?.fileName.normalize('NFC')).toBe('Interview Jürgen Köln.wav');
    history.setFilters({ search: '', states: ['failed'] });
    await until(() => !history.loading && history.total === 0);
    history.resetFilters();
    await until(() => !history.loading && history.total === 2);
    expect(history.filtered).toBe(false);
  });
});
