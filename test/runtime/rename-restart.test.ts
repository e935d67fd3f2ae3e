// An editor's week with a watch folder (walkthrough 2026-12, S1-1, S2-5, S3-3): six clips
// processed; three corrected (a word and a named speaker); those three renamed, two while Sluice
// runs and one moved into a subfolder while it is stopped; Sluice stopped and started twice; a
// rescan. Then each clip has had one stream at the service, every correction is in every result,
// and every editor file links the media where it is now. Real files, the sandbox over loopback.
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { currentPath } from '../../main/engine/source-path.js';
import type { JobRecord } from '../../main/engine/job.js';
import { createHandlers } from '../../main/ipc/handlers.js';
import type { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { closeRuntime, closeRuntimes, openRuntime } from '../helpers/runtime.js';
import { until } from '../ipc/helpers.js';

const KEY = 'k';
const CLIPS = ['DJI_0001.WAV', 'MVI_0042.WAV', 'GX010042.WAV', 'ZOOM0004.WAV', 'ZOOM0005.WAV', 'ZOOM0006.WAV'];
/**
 * The three clips reviewed: two corrected words (the first and the last said), a named speaker, and
 * the name each gets.
 */
const REVIEWED = [
  {
    clip: 'DJI_0001.WAV',
    word: 'Brückenanflug',
    last: 'Landeplatz',
    speaker: 'Pilot Jonas',
    to: 'DJI_0001_Bruecke_Anflug.WAV',
  },
  {
    clip: 'MVI_0042.WAV',
    word: 'Hafenkran',
    last: 'Kaimauer',
    speaker: 'Hélène Dubois',
    to: 'MVI_0042_Hafen_Interview.WAV',
  },
  // Moved into a subfolder (and renamed) while Sluice is not running.
  {
    clip: 'GX010042.WAV',
    word: 'Strandbar',
    last: 'Sonnenuntergang',
    speaker: 'Mira Okafor',
    to: 'Selects/GX010042_Promenade.WAV',
  },
] as const;
const FORMATS = ['fcpxml', 'json', 'premiere', 'srt', 'txt', 'vtt'];

let dir: string;
let card: string;
let sandbox: Sandbox;
/** Per run: the files the watch folder looked at and left alone (already queued or processed). */
let skipped: Set<string>;

async function open(): Promise<Runtime> {
  skipped = new Set();
  const rt = await openRuntime({
    stateDir: path.join(dir, 'state'),
    sandbox: { url: sandbox.url, apiKey: KEY },
    start: false,
  });
  const folder = WATCH_FOLDER.parse({
    id: 'card',
    path: card,
    cardRules: 'off',
    output: { formats: FORMATS, pattern: '{name}' },
  });
  await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, settleMs: 200 }, watchFolders: [folder] }));
  rt.on((e) => void (e.type === 'folder:skipped' && skipped.add(e.path)));
  await rt.start({ watch: true });
  return rt;
}

beforeEach(async () => {
  dir = await makeMediaDir('sluice-rename-restart-');
  card = path.join(dir, 'card');
  await mkdir(card);
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
});

afterEach(async () => {
  await closeRuntimes();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

const jobOf = (rt: Runtime, clip: string): JobRecord =>
  rt.queue.jobs().find((j) => j.source.path === path.join(card, clip))!;

/** Where each clip is now, as the editor left it. */
function whereNow(clip: string): string {
  const renamed = REVIEWED.find((r) => r.clip === clip);
  return path.join(card, renamed ? renamed.to : clip);
}

/**
 * Waits until the watch folder has decided on every clip at its current path since this start:
 * left alone as known, or taken as a new job (which the assertions then catch).
 */
async function decidedOnEveryClip(rt: Runtime, baseline: number): Promise<void> {
  await until(() => rt.queue.jobs().length > baseline || CLIPS.every((c) => skipped.has(whereNow(c))), 30_000);
  await rt.results.settled();
}

/** The media a result links: FCPXML's asset `src`, Premiere's `pathurl` (file URLs), read back by Node. */
async function linkedMedia(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  const urls = [...text.matchAll(/\bsrc="(file:[^"]+)"/g), ...text.matchAll(/<pathurl>(file:[^<]+)<\/pathurl>/g)];
  return urls.map((m) => fileURLToPath(m[1]!.replaceAll('&amp;', '&')));
}

describe('a renamed clip across restarts', () => {
  it('is one stream, keeps every correction, and its editor files link it where it is now', async () => {
    const made = path.join(dir, 'made');
    await mkdir(made);
    let rt = await open();
    // Copied into the card once whole (as a card dump does): each clip is taken once.
    for (const [i, clip] of CLIPS.entries()) {
      await rename(await makeToneWav(made, clip, 2 + i), path.join(card, clip));
    }
    await until(() => rt.queue.jobs().filter((j) => j.state === 'completed').length === CLIPS.length, 60_000);
    expect(sandbox.stats().upload).toBe(CLIPS.length);

    // The review: a word corrected and the speaker named in three clips.
    for (const r of REVIEWED) {
      const job = jobOf(rt, r.clip);
      let t = await rt.transcripts.open(job);
      const n = t.current.words.length;
      expect(n).toBeGreaterThan(3);
      t = await rt.transcripts.edit(job, t.layer.revision, { kind: 'setSpeaker', from: 0, to: n, speaker: 'A' });
      t = await rt.transcripts.edit(job, t.layer.revision, { kind: 'renameSpeaker', speaker: 'A', name: r.speaker });
      t = await rt.transcripts.edit(job, t.layer.revision, { kind: 'replace', from: 0, to: 1, text: r.word });
      await rt.transcripts.edit(job, t.layer.revision, { kind: 'replace', from: n - 1, to: n, text: r.last });
    }
    await rt.transcripts.settled();

    // Two renamed while Sluice runs: their results follow, nothing is sent.
    for (const r of REVIEWED.slice(0, 2)) await rename(path.join(card, r.clip), path.join(card, r.to));
    await until(() => REVIEWED.slice(0, 2).every((r) => currentPath(jobOf(rt, r.clip)) === whereNow(r.clip)), 30_000);
    await rt.results.settled();
    await closeRuntime(rt);

    // One moved into a subfolder and renamed while Sluice is stopped.
    const third = REVIEWED[2];
    await mkdir(path.dirname(whereNow(third.clip)));
    await rename(path.join(card, third.clip), whereNow(third.clip));

    // Started and stopped twice: each start walks the card and must know every clip by its name now.
    for (let start = 0; start < 2; start++) {
      rt = await open();
      await decidedOnEveryClip(rt, CLIPS.length);
      expect(rt.queue.jobs()).toHaveLength(CLIPS.length);
      if (start === 1) break;
      await closeRuntime(rt);
    }

    // A rescan: every clip already processed, none new.
    const [summary] = await rt.folders.rescan();
    expect(summary).toMatchObject({ newFiles: 0, inQueue: 0, alreadyProcessed: CLIPS.length });
    await rt.results.settled();

    // One stream per clip at the service, and no job holds another.
    const streams: string[] = [];
    for await (const s of rt.connection.client.iterateStreams({ size: 100 })) streams.push(s.streamId);
    expect(streams).toHaveLength(CLIPS.length);
    expect(sandbox.stats().upload).toBe(CLIPS.length);
    const jobs = rt.queue.jobs();
    expect(jobs).toHaveLength(CLIPS.length);
    expect(new Set(jobs.map((j) => j.streamId))).toEqual(new Set(streams));
    expect(jobs.every((j) => j.previousStreamIds.length === 0)).toBe(true);

    for (const clip of CLIPS) {
      const job = jobOf(rt, clip);
      const media = whereNow(clip);
      expect(currentPath(job), clip).toBe(media);
      const stem = path.basename(media, '.WAV');
      // Every result sits beside the media under its name now, and every editor file links it there.
      expect(job.results.map((r) => r.format).sort()).toEqual(FORMATS);
      for (const r of job.results) {
        expect(path.dirname(r.path), r.path).toBe(path.dirname(media));
        expect(path.basename(r.path).startsWith(`${stem}.`), r.path).toBe(true);
        if (r.format === 'fcpxml' || r.format === 'premiere') {
          const linked = await linkedMedia(r.path);
          expect(linked.length, r.path).toBeGreaterThan(0);
          expect(new Set(linked), r.path).toEqual(new Set([media]));
        }
      }
      const reviewed = REVIEWED.find((r) => r.clip === clip);
      if (!reviewed) continue;
      // Every correction in every result: both words in each transcript format, the name in each.
      // The Premiere XML holds no text but its markers (one per speaker turn, named after the
      // speaker, the turn's first words in the note): the name and the first word.
      for (const r of job.results) {
        const text = await readFile(r.path, 'utf8');
        const words =
          r.format === 'premiere'
            ? [reviewed.speaker, reviewed.word]
            : [reviewed.speaker, reviewed.word, reviewed.last];
        for (const w of words) expect(text.includes(w), `${r.path} has ${w}`).toBe(true);
      }
    }

    // History: the clip under its current name, found by it, with the name it had before.
    const handlers = createHandlers(rt, {
      kind: 'web',
      version: '0.0.0-test',
      secrets: memoryVault(),
      openPath: async () => undefined,
      revealPath: async () => undefined,
    });
    // A word only the new name has (not the old name, not the transcript): found by its name.
    const page = value(await handlers['history:list']({ search: 'promenade', includeExternal: false }));
    expect(page.entries.map((e) => e.jobId)).toEqual([jobOf(rt, third.clip).id]);
    const entry = page.entries[0];
    expect(entry?.match).toBeUndefined();
    expect(entry).toMatchObject({
      fileName: 'GX010042_Promenade.WAV',
      sourcePath: whereNow(third.clip),
      earlierPaths: [path.join(card, third.clip)],
    });
    const all = value(await handlers['history:list']({ includeExternal: false }));
    expect(all.entries.map((e) => e.fileName).sort()).toEqual(CLIPS.map((c) => path.basename(whereNow(c))).sort());
  }, 180_000);
});
