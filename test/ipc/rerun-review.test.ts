// History's Re-run of a clip the editor reviewed, from a watch folder with an output folder: the
// new results go where the folder writes (the output folder, mirroring the card), nothing is
// written into the card, and the review work (corrections, a speaker name, a marker) is carried
// onto the new transcript, as the confirmation said it would be. And a clip processed again
// without being asked for never writes over reviewed results. Real runtime and bridge, the
// sandbox over loopback HTTP, generated media.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
import { OUTPUT } from '../../main/engine/settings.js';
import type { BridgeEvent } from '../../main/ipc/event-stream.js';
import { createBridge, type Bridge } from '../../main/ipc/handlers.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { FAST_POLL } from '../helpers/runtime.js';
import { until } from './helpers.js';

let dir: string;
let card: string;
let out: string;
let clipDir: string;
let sandbox: Sandbox;
let rt: Runtime;
let bridge: Bridge;
const events: BridgeEvent[] = [];

beforeEach(async () => {
  dir = await makeMediaDir('sluice-rerun-review-');
  card = path.join(dir, 'SONY_FX3');
  out = path.join(dir, 'Transcripts');
  clipDir = path.join(card, 'PRIVATE', 'M4ROOT', 'CLIP');
  await mkdir(clipDir, { recursive: true });
  await mkdir(out);
  sandbox = await startSandbox({ apiKey: 'k', speedFactor: 0.01 });
  rt = await Runtime.open({
    stateDir: path.join(dir, '.state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: 'k' },
    ctx: { poll: FAST_POLL },
  });
  await rt.updateSettings((s) => ({
    ...s,
    queue: { ...s.queue, settleMs: 300, rescanIntervalMs: 3_600_000 },
    watchFolders: [
      {
        id: 'card',
        path: card,
        enabled: true,
        templateId: TEMPLATE_IDS.diarization,
        params: {},
        include: [],
        exclude: [],
        recursive: true,
        output: OUTPUT.parse({ formats: ['json', 'srt', 'txt', 'edl'] }),
        outputDir: out,
        postAction: { kind: 'none' },
      },
    ],
  }));
  events.length = 0;
  bridge = createBridge(
    rt,
    {
      kind: 'web',
      version: '0.0.0-test',
      secrets: memoryVault(),
      openPath: async () => {},
      revealPath: async () => {},
    },
    { flushIntervalMs: 20, statsIntervalMs: 50 },
  );
  bridge.events.subscribe((e) => events.push(e), { ready: true });
});

afterEach(async () => {
  bridge.close();
  await rt.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every file below `root`, relative, with a hash of its bytes. */
async function tree(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    found[path.relative(root, full)] = createHash('sha256')
      .update(await readFile(full))
      .digest('hex');
  }
  return found;
}

/** The clip taken by the watch folder, processed, then reviewed: two corrections, a name, a marker. */
async function reviewedClip(): Promise<{ jobId: string; corrected: string[] }> {
  await makeToneWav(clipDir, 'C0001.wav', 12);
  await rt.start({ watch: true });
  const first = await until(() => rt.queue.jobs().find((j) => j.state === 'completed'), 40_000);
  const jobId = first.id;
  let view = value(await bridge.handlers['transcript:open']({ jobId }));
  expect(view.words.length).toBeGreaterThan(5);
  expect(view.speakers.length).toBeGreaterThan(0);
  const change = async (edit: Parameters<Bridge['handlers']['transcript:edit']>[0]['edit']): Promise<void> => {
    view = value(await bridge.handlers['transcript:edit']({ jobId, revision: view.revision, edit }));
    const revision = view.revision;
    await until(() =>
      events.find(
        (e) => e.name === 'transcript:changed' && e.payload.jobId === jobId && e.payload.revision === revision,
      ),
    );
  };
  await change({ kind: 'replace', from: 0, to: 1, text: 'Harbourmaster office' });
  await change({ kind: 'replace', from: 4, to: 5, text: 'Quayside' });
  await change({ kind: 'renameSpeaker', speaker: view.speakers[0]!.id, name: 'Hélène Dubois' });
  await change({ kind: 'addMarker', atMs: 1000, name: 'Crane delay', note: 'use in teaser', colour: 'Red' });
  return { jobId, corrected: view.words.slice(0, 6).map((w) => w.text) };
}

describe('a re-run of a reviewed clip from a watch folder with an output folder', () => {
  it('writes in the output folder, nothing into the card, and carries the review work over', async () => {
    const { jobId, corrected } = await reviewedClip();
    const firstResults = rt.queue.job(jobId)!.results.map((r) => r.path);
    expect(firstResults.every((p) => p.startsWith(path.join(out, 'PRIVATE', 'M4ROOT', 'CLIP')))).toBe(true);
    const cardBefore = await tree(card);

    // What the confirmation shows before anything happens.
    const work = value(await bridge.handlers['history:reviewWork']({ jobId }));
    expect(work).toMatchObject({ corrections: 2, speakerNames: 1, markers: 1 });
    expect(work.words).toBe('2 corrections, 1 speaker name and 1 marker');

    const again = value(await bridge.handlers['history:rerun']({ jobId }));
    const secondId = again[0] && 'jobId' in again[0] ? again[0].jobId : '';
    expect(secondId).not.toBe(jobId);
    const second = await until(() => {
      const j = rt.queue.job(secondId);
      return j?.state === 'completed' && j;
    }, 40_000);

    // Where the folder writes, under the same names; the card as it was.
    expect(second.results.map((r) => r.path).sort()).toEqual([...firstResults].sort());
    expect(await tree(card)).toEqual(cardBefore);
    expect(second.review).toMatchObject({ outcome: 'carried', from: jobId });
    expect(second.review?.note).toBe(
      'Review work of the earlier run carried over: 2 corrections, 1 speaker name and 1 marker.',
    );
    const base = path.join(out, 'PRIVATE', 'M4ROOT', 'CLIP', 'C0001');
    const srt = await readFile(`${base}.srt`, 'utf8');
    expect(srt).toContain('Hélène Dubois: Harbourmaster office');
    expect(srt).toContain('Quayside');
    expect(await readFile(`${base}.edl`, 'utf8')).toContain('Crane delay');
    expect(JSON.parse(await readFile(`${base}.json`, 'utf8')).transcription.text).toContain('Harbourmaster office');

    // The review of the new run opens on the carried work, and History says so.
    const view = value(await bridge.handlers['transcript:open']({ jobId: secondId }));
    expect(view.words.slice(0, 6).map((w) => w.text)).toEqual(corrected);
    expect(view.markers?.map((m) => m.name)).toEqual(['Crane delay']);
    expect(view.speakers.find((s) => s.renamed)?.name).toBe('Hélène Dubois');
    const page = value(await bridge.handlers['history:list']({ includeExternal: false }));
    expect(page.entries.find((e) => e.jobId === secondId)?.reviewNote).toBe(second.review?.note);
  }, 90_000);

  it('a clip processed again without being asked for writes beside reviewed results, not over them', async () => {
    const { jobId } = await reviewedClip();
    const base = path.join(out, 'PRIVATE', 'M4ROOT', 'CLIP', 'C0001');
    const reviewed = await readFile(`${base}.srt`, 'utf8');
    expect(reviewed).toContain('Harbourmaster office');

    // The clip copied in again with other bytes (a card copied over): the folder takes it as a new
    // file, the same place for its results, and no re-run was asked for.
    await makeToneWav(clipDir, 'C0001.wav', 12);
    value(await bridge.handlers['folders:rescan']({ id: 'card' }));
    const again = await until(() => rt.queue.jobs().find((j) => j.id !== jobId && j.state === 'completed'), 40_000);
    expect(again.review).toMatchObject({ outcome: 'beside', from: jobId });
    expect(again.review?.note).toBe(
      "Results written beside the earlier run's, not over them: those hold review work (2 corrections, 1 speaker name and 1 marker) that this transcript does not have.",
    );
    expect(again.results.map((r) => path.basename(r.path)).sort()).toEqual([
      'C0001.wav.edl',
      'C0001.wav.json',
      'C0001.wav.srt',
      'C0001.wav.txt',
    ]);
    expect(again.results.every((r) => r.collided)).toBe(true);
    expect(await readFile(`${base}.srt`, 'utf8')).toBe(reviewed);
  }, 90_000);
});
