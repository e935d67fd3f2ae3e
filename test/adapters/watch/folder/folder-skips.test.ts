// A folder's list of files it left, as the watcher and the intake feed it: an Ignore holds while
// the file is as it was and ends when it changes (written again, taken, gone), is kept in its
// store across restarts, and each change of the list is said once. Clock and store are injected.
import { expect, it } from 'vitest';
import { FolderSkips } from '../../../../main/adapters/watch/folder/folder-skips.js';
import { IgnoredFilesMemory } from '../../../../main/adapters/store/state/ignored-files.js';

const T0 = 1_800_000_000_000;
const clip = '/card/GX010099.MP4';
const words = 'unchanged for 3 min and not a complete MP4: no index (moov)';

function skips(store = new IgnoredFilesMemory()) {
  const clock = { now: T0 };
  const changed: string[] = [];
  const s = new FolderSkips({ changed: (id) => changed.push(id), store, now: () => clock.now });
  return { s, store, clock, changed };
}

it('lists a file not whole, ignores it while it stays as it is, and forgets the ignore once it is written again', () => {
  const { s, clock, changed } = skips();
  s.note('card', { path: clip, reason: 'never-whole', key: '300:1', detail: words });
  // Told again as it was: no change to say.
  s.note('card', { path: clip, reason: 'never-whole', key: '300:1', detail: words });
  expect(changed).toEqual(['card']);
  const [listed] = s.list('card');
  expect(listed).toMatchObject({ path: clip, reason: 'never-whole', detail: words, at: T0 });

  clock.now += 1000;
  expect(s.ignore('card', listed!.id)).toBe(true);
  expect(s.list('card')).toMatchObject([{ id: listed!.id, reason: 'ignored', at: T0 + 1000 }]);
  expect(s.quiet('card', clip, 300)).toBe(true);

  // The copy goes on (another size): the ignore ends, the file is no longer said not whole.
  s.copying('card', clip, 600);
  expect(s.quiet('card', clip, 600)).toBe(false);
  expect(s.list('card')).toEqual([]);
  expect(s.unignore('card', listed!.id)).toBe(false);
});

it('an ignore is kept in its store: after a restart it is listed before the file is told again', () => {
  const store = new IgnoredFilesMemory();
  const first = skips(store);
  first.s.note('card', { path: clip, reason: 'never-whole', key: '300:1', detail: words });
  first.s.ignore('card', first.s.list('card')[0]!.id);

  const { s } = skips(store);
  expect(s.list('card')).toMatchObject([{ path: clip, reason: 'ignored' }]);
  expect(s.quiet('card', clip, 300)).toBe(true);
  // Told not whole as it was: still ignored, with what is wrong now known.
  s.note('card', { path: clip, reason: 'never-whole', key: '300:1', detail: words });
  expect(s.list('card')).toMatchObject([{ reason: 'ignored', detail: words }]);
  // Told with another time (touched, rewritten to the same size): the ignore no longer holds.
  s.note('card', { path: clip, reason: 'never-whole', key: '300:2', detail: words });
  expect(s.list('card')).toMatchObject([{ reason: 'never-whole' }]);
  expect(store.read().get('card')).toBeUndefined();
});

it('only a file not whole or empty may be ignored; a stale id is refused', () => {
  const { s } = skips();
  s.note('card', { path: '/card/B-ROLL.mp4', reason: 'dangling-link', detail: 'a link to a file that is not there' });
  s.note('card', { path: '/card/Backup/IMG_0001.WAV', reason: 'second-copy', key: '9:9', detail: 'Day1/IMG_0001.WAV' });
  for (const item of s.list('card')) expect(s.ignore('card', item.id)).toBe(false);
  expect(s.ignore('card', 'feedfeedfeedfeed')).toBe(false);
  expect(s.find('other', s.list('card')[0]!.id)).toBeUndefined();
});

it('a file taken, or gone from a complete walk, leaves the list and its ignore', () => {
  const { s, store } = skips();
  s.note('card', { path: '/card/EMPTY.MP4', reason: 'empty', key: '0:1' });
  s.note('card', { path: clip, reason: 'never-whole', key: '300:1', detail: words });
  s.ignore('card', s.list('card').find((x) => x.path === clip)!.id);
  s.taken('card', '/card/EMPTY.MP4');
  expect(s.list('card').map((x) => x.path)).toEqual([clip]);
  s.walked('card', new Set(['/card/other.MP4']));
  expect(s.list('card')).toEqual([]);
  expect(store.read().size).toBe(0);
});

it('a folder removed from Settings takes its list and its ignores with it', () => {
  const { s, store } = skips();
  s.note('gone', { path: clip, reason: 'never-whole', key: '300:1', detail: words });
  s.ignore('gone', s.list('gone')[0]!.id);
  s.note('card', { path: '/card/EMPTY.MP4', reason: 'empty', key: '0:1' });
  s.keepFolders(new Set(['card']));
  expect(s.list('gone')).toEqual([]);
  expect([...store.read().keys()]).toEqual([]);
  expect(s.list('card')).toHaveLength(1);
});
