// Every file a watch folder leaves is listed with why, through the runtime and the bridge, with the
// sandbox processing what is taken: a clip cut short before its index (no moov), a 0-byte file, a
// link to a drive that is not there and a card copied to a second place. A Rescan counts them by
// reason; Ignore holds across a restart until it is undone; Retry looks again at once; the clip is
// taken as soon as it is whole. The watch folders' clock is the test's (never-whole after 3 min).
import { copyFile, mkdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { FolderStatusView, SkipView } from '../../preload/contract.js';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { createBridge, type Bridge } from '../../main/ipc/handlers.js';
import type { Runtime } from '../../main/runtime/runtime.js';
import { value } from '../helpers/result.js';
import { closeRuntime, closeRuntimes, openRuntime } from '../helpers/runtime.js';
import { makeMediaDir, makeMp4, makeToneWav } from '../helpers/media.js';

let dir: string;
let folder: string;
let full: Buffer;
const clock = { skew: 0 };
const bridges: Bridge[] = [];
const messages: string[] = [];

beforeEach(async () => {
  dir = await makeMediaDir('sluice-folder-skips-');
  folder = path.join(dir, 'card');
  await mkdir(path.join(folder, 'Day1', 'iPhone'), { recursive: true });
  clock.skew = 0;
  messages.length = 0;
  full = await readFile(await makeMp4(dir, 'GX010099-full.MP4', 2));
});
afterEach(async () => {
  for (const b of bridges.splice(0)) b.close();
  await closeRuntimes();
  await rm(dir, { recursive: true, force: true });
});

async function open(): Promise<{ rt: Runtime; bridge: Bridge }> {
  const rt = await openRuntime({
    stateDir: path.join(dir, 'state'),
    start: false,
    watchClock: () => Date.now() + clock.skew,
  });
  const watched = WATCH_FOLDER.parse({ id: 'card', path: folder });
  await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, settleMs: 200 }, watchFolders: [watched] }));
  rt.on((e) => void (e.type === 'folder:status' && e.message && messages.push(e.message)));
  const bridge = createBridge(
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
  bridges.push(bridge);
  await rt.start({ watch: true });
  return { rt, bridge };
}

const old = async (p: string): Promise<void> => {
  const t = new Date(Date.now() - 3_600_000);
  await utimes(p, t, t);
};

/** An MP4 as a camera leaves it when its battery dies: the media data, not the index written last. */
function withoutMoov(mp4: Buffer): Buffer {
  for (let at = 0; at + 8 <= mp4.length;) {
    const size = mp4.readUInt32BE(at);
    if (mp4.toString('latin1', at + 4, at + 8) === 'moov') return mp4.subarray(0, at);
    if (size < 8) break;
    at += size;
  }
  throw new Error('the generated MP4 has its index first');
}

const statusOf = async (bridge: Bridge): Promise<FolderStatusView | undefined> =>
  value(await bridge.handlers['folders:statuses']({})).find((s) => s.folderId === 'card');
const skipsOf = async (bridge: Bridge): Promise<SkipView[]> => (await statusOf(bridge))?.skips ?? [];
const skip = async (bridge: Bridge, name: string): Promise<SkipView | undefined> =>
  (await skipsOf(bridge)).find((s) => s.fileName === name);

it('lists a clip cut short, an empty file, a link to nowhere and a second copy of a card, with why; Ignore, Retry and a rescan', async () => {
  const first = path.join(folder, 'Day1', 'iPhone', 'IMG_0001.WAV');
  await copyFile(await makeToneWav(dir, 'tone.wav', 1), first);
  const clip = path.join(folder, 'GX010099.MP4');
  await writeFile(clip, withoutMoov(full));
  const empty = path.join(folder, 'EMPTY_CARD_ERROR.MP4');
  await writeFile(empty, '');
  await symlink(path.join(dir, 'unplugged-drive', 'B-ROLL.mp4'), path.join(folder, 'B-ROLL.mp4'));
  for (const p of [first, clip, empty]) await old(p);

  let { rt, bridge } = await open();
  await expect.poll(() => rt.queue.jobs().filter((j) => j.state === 'completed').length, { timeout: 30_000 }).toBe(1);
  await expect
    .poll(async () => (await skip(bridge, 'EMPTY_CARD_ERROR.MP4'))?.reason, { timeout: 10_000 })
    .toBe('empty');
  expect(await skip(bridge, 'EMPTY_CARD_ERROR.MP4')).toMatchObject({
    why: 'Empty (0 bytes).',
    canRetry: true,
    canIgnore: true,
  });
  expect(await skip(bridge, 'B-ROLL.mp4')).toMatchObject({
    reason: 'dangling-link',
    label: 'Link to nowhere',
    why: 'A link to a file that is not there.',
    canRetry: false,
    canIgnore: false,
  });
  // The clip is looked at again and again as a copy that may go on, until 3 minutes pass unchanged.
  await expect.poll(() => rt.folders.copies().map((c) => c.path), { timeout: 10_000 }).toContain(clip);
  expect(await skip(bridge, 'GX010099.MP4')).toBeUndefined();

  clock.skew += 181_000;
  await expect.poll(async () => (await skip(bridge, 'GX010099.MP4'))?.reason, { timeout: 10_000 }).toBe('never-whole');
  const notWhole = await skip(bridge, 'GX010099.MP4');
  expect(notWhole?.why).toBe(
    'Unchanged for 3 min and not a complete MP4: no index (moov); the camera may have stopped mid-recording. It is taken at once if it changes.',
  );
  expect(notWhole).toMatchObject({ canRetry: true, canIgnore: true, path: 'GX010099.MP4' });
  expect(rt.folders.copies().map((c) => c.path)).not.toContain(clip);

  // The card copied to a second place: the same clip, not a second bill.
  const backup = path.join(folder, 'Backup_Day1', 'iPhone', 'IMG_0001.WAV');
  await mkdir(path.dirname(backup), { recursive: true });
  await copyFile(first, backup);
  await old(backup);
  await rt.folders.rescan('card');
  await expect.poll(async () => (await skip(bridge, 'IMG_0001.WAV'))?.reason, { timeout: 15_000 }).toBe('second-copy');
  expect((await skip(bridge, 'IMG_0001.WAV'))?.path).toBe(path.join('Backup_Day1', 'iPhone', 'IMG_0001.WAV'));
  expect((await skip(bridge, 'IMG_0001.WAV'))?.why).toBe(
    `A second copy of ${path.join('Day1', 'iPhone', 'IMG_0001.WAV')}, which is already processed or queued.`,
  );
  expect(rt.queue.jobs()).toHaveLength(1);

  // The rescan's count says what it queued and what it left, and why.
  const rescanned = value(await bridge.handlers['folders:rescan']({ id: 'card' })).find((s) => s.folderId === 'card');
  expect(rescanned?.lastRescan?.text).toBe(
    '4 new files — 0 queued, 1 second copy, 1 empty, 1 link to nowhere, 1 not whole; 1 already processed.',
  );
  // What needs the editor comes first.
  expect((await skipsOf(bridge)).map((s) => s.reason)).toEqual([
    'never-whole',
    'empty',
    'dangling-link',
    'second-copy',
  ]);

  // Ignore: listed as ignored, kept across a restart, not shown as a copy going on.
  value(await bridge.handlers['folders:ignoreSkipped']({ folderId: 'card', id: notWhole!.id }));
  expect(await skip(bridge, 'GX010099.MP4')).toMatchObject({ reason: 'ignored', canUnignore: true, canRetry: false });
  await closeRuntime(rt);
  clock.skew = 0;
  ({ rt, bridge } = await open());
  const restarted = messages.length;
  expect(await skip(bridge, 'GX010099.MP4')).toMatchObject({ reason: 'ignored', id: notWhole!.id });
  await expect
    .poll(async () => (await skip(bridge, 'EMPTY_CARD_ERROR.MP4'))?.reason, { timeout: 10_000 })
    .toBe('empty');
  clock.skew += 181_000;
  const again = value(await bridge.handlers['folders:rescan']({ id: 'card' })).find((s) => s.folderId === 'card');
  expect(again?.lastRescan?.text).toMatch(/1 ignored/);
  expect(rt.folders.copies().map((c) => c.path)).not.toContain(clip);

  // Found not whole again in this run: still listed as ignored (with what is wrong), nothing said.
  await expect
    .poll(async () => (await skip(bridge, 'GX010099.MP4'))?.why, { timeout: 10_000 })
    .toMatch(/^Ignored by you\. Unchanged for 3 min and not a complete MP4/);
  expect(messages.slice(restarted).filter((m) => m.startsWith('GX010099.MP4'))).toEqual([]);

  // Undone: reported again as it is, at once.
  value(await bridge.handlers['folders:unignoreSkipped']({ folderId: 'card', id: notWhole!.id }));
  expect((await skip(bridge, 'GX010099.MP4'))?.reason).toBe('never-whole');

  // Retry while still not whole: looked at at once and said so again.
  const told = messages.length;
  value(await bridge.handlers['folders:retrySkipped']({ folderId: 'card', id: notWhole!.id }));
  await expect
    .poll(() => messages.slice(told).some((m) => m.startsWith('GX010099.MP4: unchanged for')), { timeout: 5_000 })
    .toBe(true);
  // A skip the folder no longer lists is refused with a sentence, not acted on.
  const stale = await bridge.handlers['folders:retrySkipped']({ folderId: 'card', id: 'feedfeedfeedfeed' });
  expect(stale).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });

  // The index arrives (the clip recovered and copied again): taken at once, and the list forgets it.
  await writeFile(clip, full);
  await expect.poll(() => rt.queue.jobs().some((j) => j.source.path === clip), { timeout: 10_000 }).toBe(true);
  await expect.poll(async () => await skip(bridge, 'GX010099.MP4'), { timeout: 5_000 }).toBeUndefined();
  await expect
    .poll(() => rt.queue.jobs().find((j) => j.source.path === clip)?.state, { timeout: 30_000 })
    .toBe('completed');
});
