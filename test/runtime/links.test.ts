// Link jobs end to end in the runtime: the links folder from Settings, the same link not taken
// twice, a rerun when asked, a restart that still knows the link, invalid links rejected, and
// links the service cannot use failing in plain words.
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobIds } from '../../main/adapters/queue/intake.js';
import { toJobView } from '../../main/ipc/views.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import type { Runtime } from '../../main/runtime/runtime.js';
import { closeRuntimes, openRuntime } from '../helpers/runtime.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { startMediaServer, type MediaServer } from '../helpers/media-server.js';

const KEY = 'test-key';
let dir: string;
let sandbox: Sandbox;
let server: MediaServer;
const open = (): Promise<Runtime> =>
  openRuntime({ stateDir: path.join(dir, '.state'), sandbox: { url: sandbox.url, apiKey: KEY } });

beforeEach(async () => {
  dir = await makeMediaDir('sluice-links-rt-');
  await makeToneWav(dir, 'take 1.wav', 1);
  await writeFile(path.join(dir, 'user.json'), 'a file of the user');
  server = await startMediaServer(dir);
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.01 });
});

afterEach(async () => {
  await closeRuntimes();
  await sandbox.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('link jobs', () => {
  it('results go to the folder chosen in Settings; the same link is not processed again unless forced', async () => {
    const out = path.join(dir, 'chosen', 'nested');
    const rt = await open();
    await rt.updateSettings((s) => ({ ...s, links: { resultsDir: out } }));
    const link = `${server.url}/take%201.wav`;
    const [added] = await rt.queue.addLinks([link]);
    expect(added?.outcome).toBe('added');
    const [job] = await rt.queue.whenSettled(jobIds([added!]));
    expect(job?.state).toBe('completed');
    expect(job?.sourceKind).toBe('link');
    expect(job?.resultsDir).toBe(out);
    expect((await readdir(out)).sort()).toEqual(['take 1.json', 'take 1.srt', 'take 1.txt', 'take 1.vtt']);

    expect((await rt.queue.addLinks([link]))[0]).toMatchObject({ outcome: 'already-done', jobId: job?.id });
    await rt.close();
    const again = await open();
    expect((await again.queue.addLinks([link]))[0]).toMatchObject({ outcome: 'already-done', jobId: job?.id });
    const forced = await again.queue.addLinks([link], { force: true });
    expect(forced[0]?.outcome).toBe('added');
    expect((await again.queue.whenSettled(jobIds(forced))).map((j) => j.state)).toEqual(['completed']);
    expect(server.requests.filter((r) => r === '/take%201.wav')).toHaveLength(2);
    expect((await readdir(out)).sort()).toEqual(['take 1.json', 'take 1.srt', 'take 1.txt', 'take 1.vtt']);
  });

  it("a result name held by the user's own file goes to the fallback name, never over it", async () => {
    const rt = await open();
    await rt.updateSettings((s) => ({ ...s, links: { resultsDir: dir } }));
    await makeToneWav(dir, 'user.wav', 1);
    const [added] = await rt.queue.addLinks([`${server.url}/user.wav`]);
    const [job] = await rt.queue.whenSettled(jobIds([added!]));
    expect(job?.state).toBe('completed');
    expect(job?.results[0]).toMatchObject({ path: path.join(dir, 'user.wav.json'), collided: true });
  });

  it('invalid links are rejected with the reason and queue nothing', async () => {
    const rt = await open();
    const outcomes = await rt.queue.addLinks(['ftp://x.org/a.mp4', 'not a link']);
    expect(outcomes.map((o) => o.outcome)).toEqual(['rejected', 'rejected']);
    expect(outcomes[0]).toMatchObject({ message: 'ftp://x.org/a.mp4 is not an http:// or https:// link.' });
    expect(rt.queue.jobs()).toHaveLength(0);
  });

  it('a link pasted twice in one list is one job', async () => {
    const rt = await open();
    await rt.updateSettings((s) => ({ ...s, links: { resultsDir: dir } }));
    await makeToneWav(dir, 'twice.wav', 1);
    const link = `${server.url}/twice.wav`;
    const outcomes = await rt.queue.addLinks([link, link]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['added', 'already-queued']);
    expect(outcomes[1]).toMatchObject({ jobId: outcomes[0]?.outcome === 'added' ? outcomes[0].jobId : '' });
    expect(rt.queue.jobs()).toHaveLength(1);
  });

  it('a link that cannot be fetched, or is no media, fails in plain words', async () => {
    const rt = await open();
    await writeFile(path.join(dir, 'notes.txt'), 'Meeting notes, not a recording.\n'.repeat(40));
    const jobs = await rt.queue.whenSettled(
      jobIds(await rt.queue.addLinks([`${server.url}/gone.wav`, `${server.url}/notes.txt`])),
    );
    expect(jobs.map((j) => j.state)).toEqual(['failed', 'failed']);
    expect(jobs.map((j) => toJobView(j, undefined).plainError)).toEqual([
      {
        summary: 'The service could not download this link: HTTP 404 Not Found.',
        nextStep: 'Check that the link opens in a browser without signing in, then add it again.',
      },
      {
        summary: 'This link does not lead to audio or video (a web page or a document, perhaps).',
        nextStep: 'Copy the link of the media file itself, then add it again.',
      },
    ]);
  });

  it('a relative links folder is refused by the settings', async () => {
    const rt = await open();
    await expect(rt.updateSettings((s) => ({ ...s, links: { resultsDir: 'relative/dir' } }))).rejects.toThrow(
      /full folder path/,
    );
  });
});
