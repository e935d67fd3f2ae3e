// Finished jobs in the archive, through the runtime and the History handlers: after a restart they
// are out of memory, yet a file already taken is not taken again, Sluice's own results are still
// recognised as its own, History pages through them, and actions on them still work.
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { value } from '../helpers/result.js';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
import { createBridge } from '../../main/ipc/handlers.js';
import type { PlatformPort } from '../../main/ipc/platform.js';
import type { Runtime } from '../../main/runtime/runtime.js';
import { closeRuntimes, openRuntime } from '../helpers/runtime.js';
import { makeToneWav } from '../helpers/media.js';
import { until } from '../ipc/helpers.js';

let dir: string;
const open = (): Promise<Runtime> => openRuntime({ stateDir: path.join(dir, 'state') });

const platform: PlatformPort = {
  kind: 'web',
  version: '0.0.0-test',
  secrets: memoryVault(),
  openPath: async () => undefined,
  revealPath: async () => undefined,
};

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-archive-rt-'));
});
afterEach(async () => {
  await closeRuntimes();
  await rm(dir, { recursive: true, force: true });
});

describe('archived jobs', () => {
  it('stay known, owned, listed and actionable after they leave memory', async () => {
    const media = path.join(dir, 'media');
    await mkdir(media);
    const files = [await makeToneWav(media, 'alpha.wav', 1), await makeToneWav(media, 'beta.wav', 1)];
    let rt = await open();
    const ids: string[] = [];
    for (const f of files) {
      const [added] = await rt.queue.addPaths([f]);
      ids.push(added?.outcome === 'added' ? added.jobId : '');
    }
    await until(() => ids.every((id) => rt.queue.job(id)?.state === 'completed'));
    for (const id of ids) expect(rt.queue.dismiss(id)).toBe(true);
    const streamOfBeta = rt.queue.job(ids[1]!)!.streamId!;
    // A word of beta's transcript, to find it by after it left memory (and after its search file is lost).
    const betaWords = (await rt.transcripts.open(rt.queue.job(ids[1]!)!)).current.words.map((w) => w.text);
    const word = betaWords.find((w) => /^\p{L}{6,}$/u.test(w))!;
    expect(word).toBeDefined();
    await rt.close();
    await rm(path.join(dir, 'state', 'search'), { recursive: true, force: true });

    rt = await open();
    // Dismissed and finished: archived at open, no longer held in memory.
    expect(rt.queue.jobs()).toEqual([]);
    expect(rt.store.isHot(ids[0]!)).toBe(false);
    expect(rt.queue.job(ids[0]!)).toMatchObject({ state: 'completed', dismissed: true });

    // Identity: the archive's index says the file was taken already.
    const again = await rt.queue.addPaths([files[0]!]);
    expect(again[0]).toMatchObject({ outcome: 'already-done', jobId: ids[0] });

    // Ownership: a result still matching the stamp Sluice recorded is its own, even with other
    // bytes (the stamp decides, not the content), so writing again replaces it in place.
    const written = rt.queue.job(ids[0]!)!.results[0]!;
    const json = path.join(media, 'alpha.json');
    await writeFile(json, 'x'.repeat((await stat(json)).size));
    // Mid-millisecond in seconds: a whole-millisecond Date can land a hair before it.
    const at = (Math.floor(written.mtimeMs!) + 0.5) / 1000;
    await utimes(json, at, at);
    const rewritten = await rt.results.writeAgain(ids[0]!);
    expect(rewritten.results.map((r) => [path.basename(r.path), r.collided ?? false])).toEqual(
      ['json', 'srt', 'vtt', 'txt'].map((f) => [`alpha.${f}`, false]),
    );
    expect(rt.store.isHot(ids[0]!)).toBe(true);

    // A stream id from the service's list leads to the archived job (History's re-export by stream).
    expect(rt.queue.jobOfStream(streamOfBeta)?.id).toBe(ids[1]);

    const bridge = createBridge(rt, platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
    try {
      const page = value(await bridge.handlers['history:list']({ includeExternal: false, pageSize: 1 }));
      expect(page.total).toBe(2);
      expect(page.entries).toHaveLength(1);
      const beta = value(await bridge.handlers['history:list']({ search: 'BETA', includeExternal: false }));
      expect(beta.entries.map((e) => [e.jobId, e.fileName, e.state])).toEqual([[ids[1], 'beta.wav', 'completed']]);
      // Transcript search reaches archived jobs, and rebuilds their lost search files.
      const found = value(await bridge.handlers['history:list']({ search: word, includeExternal: false }));
      const hit = found.entries.find((e) => e.jobId === ids[1]);
      expect(hit?.match?.text.toLowerCase()).toContain(word.toLowerCase());
    } finally {
      bridge.close();
    }
  });
});
