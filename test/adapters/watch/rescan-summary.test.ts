// Rescan says what it found, in the IPC result and the folder's status: new files, files already
// processed, files still being copied. A real watch folder, the real runtime, the sandbox over HTTP.
import { copyFile, mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeRescan } from '../../../main/engine/rescan-summary.js';
import { memoryVault } from '../../../main/adapters/store/secrets/secret-vault.js';
import { createBridge, type Bridge } from '../../../main/ipc/handlers.js';
import { Runtime } from '../../../main/runtime/runtime.js';
import { makeMediaDir, makeToneWav } from '../../helpers/media.js';
import { until } from '../../ipc/helpers.js';
import { value } from '../../helpers/result.js';

let dir: string;
let folder: string;
let rt: Runtime;
let bridge: Bridge;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-rescan-');
  folder = path.join(dir, 'card');
  await mkdir(folder);
  rt = await Runtime.open({
    stateDir: path.join(dir, '.state'),
    connection: { sandbox: true },
    sandboxOptions: { speedFactor: 0.01 },
    ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
    watchEvents: false,
  });
  await rt.updateSettings((s) => ({
    ...s,
    queue: { ...s.queue, settleMs: 1000, rescanIntervalMs: 3_600_000 },
    watchFolders: [
      {
        id: 'card',
        path: folder,
        enabled: true,
        templateId: s.defaults.templateId,
        params: {},
        include: [],
        exclude: [],
        recursive: true,
        output: s.defaults.output,
        postAction: { kind: 'none' },
      },
    ],
  }));
  bridge = createBridge(
    rt,
    {
      kind: 'web',
      version: '0',
      secrets: memoryVault(),
      openPath: async () => undefined,
      revealPath: async () => undefined,
    },
    { flushIntervalMs: 20, statsIntervalMs: 50 },
  );
});
afterEach(async () => {
  bridge.close();
  await rt.close();
  await rm(dir, { recursive: true, force: true });
});

const aMinuteAgo = () => new Date(Date.now() - 60_000);

describe('Rescan', () => {
  it('says how many files are new, already processed and still copying', async () => {
    const tone = await makeToneWav(dir, 'tone.wav', 1);
    for (const n of ['A.WAV', 'B.wav']) {
      await copyFile(tone, path.join(folder, n));
      await utimes(path.join(folder, n), aMinuteAgo(), aMinuteAgo());
    }
    await rt.start({ watch: true });
    await until(() => rt.queue.jobs().filter((j) => j.state === 'completed').length === 2, 20_000);

    for (const n of ['C.wav', 'D.wav', 'E.wav']) {
      await copyFile(tone, path.join(folder, n));
      await utimes(path.join(folder, n), aMinuteAgo(), aMinuteAgo());
    }
    // Still being written: changed just now.
    await writeFile(path.join(folder, 'F.wav'), (await readFile(tone)).subarray(0, 5000));

    const statuses = value(await bridge.handlers['folders:rescan']({ id: 'card' }));
    const card = statuses.find((s) => s.folderId === 'card');
    expect(card?.lastRescan).toMatchObject({ newFiles: 3, alreadyProcessed: 2, stillCopying: 1, inQueue: 0 });
    expect(card?.lastRescan?.text).toBe('3 new files, 2 already processed, 1 still copying.');
    // The folder's status keeps saying it until the next Rescan.
    const again = value(await bridge.handlers['folders:statuses']({}));
    expect(again.find((s) => s.folderId === 'card')?.lastRescan?.text).toBe(card?.lastRescan?.text);
  });

  it('says it in words for every combination', () => {
    expect(describeRescan({ newFiles: 1, inQueue: 0, alreadyProcessed: 0, stillCopying: 0 })).toBe('1 new file.');
    expect(describeRescan({ newFiles: 0, inQueue: 2, alreadyProcessed: 1, stillCopying: 0 })).toBe(
      '2 already in the queue, 1 already processed.',
    );
    expect(describeRescan({ newFiles: 0, inQueue: 0, alreadyProcessed: 0, stillCopying: 0 })).toBe(
      'No media files found.',
    );
  });
});
