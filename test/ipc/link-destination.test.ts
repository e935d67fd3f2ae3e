// Where a link's results go, chosen in the Add-link dialog: the folder is checked before any link
// is sent (nothing queued when it cannot take them), the results land there, and the choice is the
// default for the next link.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobIds } from '../../main/adapters/queue/intake.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { startMediaServer, type MediaServer } from '../helpers/media-server.js';
import { value } from '../helpers/result.js';
import { useBridgeEnv } from './helpers.js';

const t = useBridgeEnv();
let media: string;
let server: MediaServer;
let downloads: string;
const savedXdg = process.env.XDG_DOWNLOAD_DIR;

beforeEach(async () => {
  media = await makeMediaDir('sluice-link-dest-');
  await makeToneWav(media, 'colourist_vo.wav', 1);
  server = await startMediaServer(media);
  // The Downloads folder of this test, not yet there.
  downloads = path.join(t.env.dir, 'home', 'Downloads');
  process.env.XDG_DOWNLOAD_DIR = downloads;
});
afterEach(async () => {
  if (savedXdg === undefined) delete process.env.XDG_DOWNLOAD_DIR;
  else process.env.XDG_DOWNLOAD_DIR = savedXdg;
  await server.close();
  await rm(media, { recursive: true, force: true });
});

const resultsIn = async (dir: string): Promise<string[]> =>
  (await readdir(dir)).filter((f) => f.startsWith('colourist_vo.')).sort();

describe('link destination', () => {
  it('refuses a missing folder with nothing sent, then writes into the chosen watch folder’s output folder and keeps it', async () => {
    const watched = path.join(t.env.dir, 'Day1');
    const out = path.join(t.env.dir, 'Transcripts');
    await mkdir(watched);
    await mkdir(out);
    const folder = value(await t.bridge.handlers['folders:add']({ folder: { path: watched, outputDir: out } }));

    const offered = value(await t.bridge.handlers['queue:linkDestinations']({}));
    expect(offered.initial).toEqual({ kind: 'downloads' });
    expect(offered.choices.map((c) => [c.label, c.dir, c.exists])).toEqual([
      ['Downloads', downloads, false],
      ['Output folder of “Day1”', out, true],
    ]);

    const link = `${server.url}/colourist_vo.wav`;
    const missing = path.join(t.env.dir, 'not-there');
    const refused = await t.bridge.handlers['queue:addLinks']({
      links: [link],
      destination: { kind: 'folder', path: missing },
    });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('VALIDATION');
    expect(refused.error.fields).toEqual([
      {
        path: 'destination',
        message: `${missing} does not exist. Create it (or connect its drive), or choose another place.`,
      },
    ]);
    expect(value(await t.bridge.handlers['queue:snapshot']({})).jobs).toEqual([]);
    expect(existsSync(missing)).toBe(false);
    expect(value(await t.bridge.handlers['settings:get']({})).links.watchFolderId ?? null).toBeNull();

    const added = value(
      await t.bridge.handlers['queue:addLinks']({
        links: [link],
        destination: { kind: 'watch-folder', folderId: folder.id },
      }),
    );
    const [job] = await t.env.rt.queue.whenSettled(jobIds(added));
    expect(job?.state).toBe('completed');
    expect((await resultsIn(out)).length).toBeGreaterThan(0);
    expect(job?.results.every((r) => path.dirname(r.path) === out)).toBe(true);
    expect(existsSync(downloads)).toBe(false);

    // Kept for the next link: Settings, the dialog's opening choice, and a link added without one.
    expect(value(await t.bridge.handlers['settings:get']({})).links).toEqual({
      resultsDir: null,
      watchFolderId: folder.id,
    });
    expect(value(await t.bridge.handlers['settings:get']({})).linkResultsDir).toBe(out);
    expect(value(await t.bridge.handlers['queue:linkDestinations']({})).initial).toEqual({
      kind: 'watch-folder',
      folderId: folder.id,
    });
  }, 60_000);

  it('makes the Downloads folder it said it would, and writes the results there', async () => {
    const link = `${server.url}/colourist_vo.wav`;
    const added = value(
      await t.bridge.handlers['queue:addLinks']({ links: [link], destination: { kind: 'downloads' } }),
    );
    const [job] = await t.env.rt.queue.whenSettled(jobIds(added));
    expect(job?.state).toBe('completed');
    expect((await resultsIn(downloads)).length).toBeGreaterThan(0);
    expect(value(await t.bridge.handlers['queue:linkDestinations']({})).choices[0]).toMatchObject({
      key: 'downloads',
      exists: true,
    });
  }, 60_000);

  it('takes a typed folder as a shell would and keeps it resolved', async () => {
    const typed = path.join(t.env.dir, 'links');
    await mkdir(typed);
    const added = value(
      await t.bridge.handlers['queue:addLinks']({
        links: [`${server.url}/colourist_vo.wav`],
        destination: { kind: 'folder', path: `${typed}/./` },
      }),
    );
    const [job] = await t.env.rt.queue.whenSettled(jobIds(added));
    expect(job?.state).toBe('completed');
    expect((await resultsIn(typed)).length).toBeGreaterThan(0);
    expect(value(await t.bridge.handlers['settings:get']({})).links).toEqual({
      resultsDir: typed,
      watchFolderId: null,
    });
    const again = value(await t.bridge.handlers['queue:linkDestinations']({}));
    expect(again).toMatchObject({ initial: { kind: 'folder', path: typed }, typed });
  }, 60_000);
});
