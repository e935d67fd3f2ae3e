// A link job is named by its decoded file name, without the query a signed link carries, wherever
// it is shown (Queue, History, `sluice history`), is found by that name, and shows no size: its
// bytes are the address sent, not the media.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jobIds } from '../../main/adapters/queue/intake.js';
import { registerInfo } from '../../main/cli/commands/info.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { startMediaServer, type MediaServer } from '../helpers/media-server.js';
import { useBridgeEnv } from './helpers.js';
import { value } from '../helpers/result.js';

const t = useBridgeEnv();
let media: string;
let server: MediaServer;

beforeEach(async () => {
  media = await makeMediaDir('sluice-link-names-');
  await makeToneWav(media, 'colourist_vo.wav', 1);
  await makeToneWav(media, 'harbour interview A-cam.wav', 1);
  server = await startMediaServer(media);
});
afterEach(async () => {
  await server.close();
  await rm(media, { recursive: true, force: true });
});

describe('link names', () => {
  it('a signed link and a %20 link are named by their file names in the Queue, History and the CLI', async () => {
    await t.env.rt.updateSettings((s) => ({ ...s, links: { resultsDir: path.join(t.env.dir, 'links') } }));
    const signed = `${server.url}/colourist_vo.wav?X-Amz-Signature=abc123&X-Amz-Expires=3600`;
    const spaced = `${server.url}/harbour%20interview%20A-cam.wav`;
    const added = await t.env.rt.queue.addLinks([signed, spaced]);
    const jobs = await t.env.rt.queue.whenSettled(jobIds(added));
    expect(jobs.map((j) => j?.state)).toEqual(['completed', 'completed']);

    const queue = value(await t.bridge.handlers['queue:snapshot']({}));
    const shown = queue.jobs.map((j) => ({ name: j.fileName, source: j.sourcePath }));
    expect(shown).toEqual(
      expect.arrayContaining([
        { name: 'colourist_vo.wav', source: `${server.url}/colourist_vo.wav` },
        { name: 'harbour interview A-cam.wav', source: `${server.url}/harbour%20interview%20A-cam.wav` },
      ]),
    );

    const history = value(await t.bridge.handlers['history:list']({ includeExternal: false }));
    const names = history.entries.map((e) => e.fileName).sort();
    expect(names).toEqual(['colourist_vo.wav', 'harbour interview A-cam.wav']);
    for (const e of history.entries) {
      expect(e.sourcePath).not.toContain('Signature');
      expect(e.totalBytes).toBeUndefined();
    }
    const found = value(
      await t.bridge.handlers['history:list']({ search: 'harbour interview', includeExternal: false }),
    );
    expect(found.entries.map((e) => e.fileName)).toEqual(['harbour interview A-cam.wav']);
    const signedFound = value(
      await t.bridge.handlers['history:list']({ search: 'colourist_vo.wav', includeExternal: false }),
    );
    expect(signedFound.entries.map((e) => e.fileName)).toEqual(['colourist_vo.wav']);
    const bySignature = value(await t.bridge.handlers['history:list']({ search: 'abc123', includeExternal: false }));
    expect(bySignature.entries).toEqual([]);

    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void printed.push(a.map(String).join(' ')));
    try {
      const program = new Command('sluice').exitOverride();
      registerInfo(program);
      await program.parseAsync(['history', '--state-dir', t.env.stateDir, '--wide'], { from: 'user' });
    } finally {
      vi.restoreAllMocks();
    }
    const text = printed.join('\n');
    expect(text).toContain('colourist_vo.wav');
    expect(text).toContain('harbour interview A-cam.wav');
    expect(text).not.toContain('Signature');
    expect(text).not.toContain('%20');
  }, 60_000);
});
