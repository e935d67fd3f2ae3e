// Re-flowing a finished file's captions to another layout (walkthrough S3-9): from the Queue's
// "Save results again" and History's re-export, the new layout is written beside the main captions,
// named as the folder option names more layouts (`{name}.vertical.srt`), and the main `.srt` keeps
// its bytes; only an explicit replace lays the main captions out anew.
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBridge, type Bridge } from '../../main/ipc/handlers.js';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
import type { PlatformPort } from '../../main/ipc/platform.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { makeToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { until } from './helpers.js';

let dir: string;
let rt: Runtime | undefined;
let bridge: Bridge | undefined;

const platform: PlatformPort = {
  kind: 'web',
  version: '0.0.0-test',
  secrets: memoryVault(),
  openPath: async () => undefined,
  revealPath: async () => undefined,
};

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-reflow-'));
  rt = await Runtime.open({
    stateDir: path.join(dir, 'state'),
    connection: { sandbox: true },
    sandboxOptions: { speedFactor: 0.01 },
    ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
    watchEvents: false,
  });
  await rt.start();
  bridge = createBridge(rt, platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
});
afterEach(async () => {
  bridge?.close();
  await rt?.close();
  rt = undefined;
  bridge = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A completed job with SRT and VTT captions in the default (Streaming) layout. */
async function completedJob(b: Bridge): Promise<{ jobId: string; media: string }> {
  const media = path.join(dir, 'media');
  await mkdir(media, { recursive: true });
  const file = await makeToneWav(media, 'C0001.wav', 8);
  await rt!.updateSettings((st) => ({
    ...st,
    defaults: { ...st.defaults, output: { ...st.defaults.output, formats: ['json', 'srt', 'vtt'], pattern: '{name}' } },
  }));
  const added = value(await b.handlers['queue:add']({ paths: [file] }));
  const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
  await until(() => rt?.queue.job(jobId)?.state === 'completed');
  return { jobId, media };
}

const cues = (srt: string): string[][] =>
  srt
    .trim()
    .split(/\n\n+/)
    .map((c) => c.split('\n'));

describe('re-flowing captions', () => {
  it('Save results again in another layout writes {name}.vertical.srt beside, the main .srt untouched', async () => {
    const b = bridge!;
    const { jobId, media } = await completedJob(b);
    const main = await readFile(path.join(media, 'C0001.srt'), 'utf8');
    const mainVtt = await readFile(path.join(media, 'C0001.vtt'), 'utf8');

    const view = value(await b.handlers['queue:rewrite']({ id: jobId, captionPreset: 'vertical' }));
    expect((await readdir(media)).sort()).toEqual([
      'C0001.json',
      'C0001.srt',
      'C0001.vertical.srt',
      'C0001.vertical.vtt',
      'C0001.vtt',
      'C0001.wav',
    ]);
    expect(await readFile(path.join(media, 'C0001.srt'), 'utf8')).toBe(main);
    expect(await readFile(path.join(media, 'C0001.vtt'), 'utf8')).toBe(mainVtt);
    // Vertical: one line of at most 32 characters, no speaker names.
    const vertical = cues(await readFile(path.join(media, 'C0001.vertical.srt'), 'utf8'));
    expect(vertical.length).toBeGreaterThan(1);
    for (const c of vertical) {
      expect(c).toHaveLength(3);
      expect(Array.from(c[2]!).length).toBeLessThanOrEqual(32);
      expect(c[2]).not.toMatch(/^Speaker \d/);
    }
    // The job lists both, and the new layout sticks (a later write keeps writing it).
    expect(view.results.map((r) => r.fileName).sort()).toContain('C0001.vertical.srt');
    expect(rt!.queue.job(jobId)?.output).toMatchObject({
      captions: { preset: 'streaming' },
      moreCaptions: ['vertical'],
    });
  });

  it('History re-export in another layout writes beside too; replacing is asked for by name', async () => {
    const b = bridge!;
    const { jobId, media } = await completedJob(b);
    const main = await readFile(path.join(media, 'C0001.srt'), 'utf8');

    const beside = value(await b.handlers['history:reexport']({ jobId, captionPreset: 'broadcast' }));
    expect(beside.results.map((r) => r.fileName)).toEqual(
      expect.arrayContaining(['C0001.srt', 'C0001.broadcast.srt', 'C0001.broadcast.vtt']),
    );
    expect(await readFile(path.join(media, 'C0001.srt'), 'utf8')).toBe(main);

    const replaced = value(
      await b.handlers['history:reexport']({ jobId, captionPreset: 'vertical', replaceCaptions: true }),
    );
    expect(replaced.results.map((r) => r.fileName)).not.toContain('C0001.vertical.srt');
    const now = cues(await readFile(path.join(media, 'C0001.srt'), 'utf8'));
    expect(now.every((c) => c.length === 3 && Array.from(c[2]!).length <= 32)).toBe(true);
    expect(rt!.queue.job(jobId)?.output?.captions.preset).toBe('vertical');
    // The layout added beside earlier is still written beside the new main one.
    expect(await readFile(path.join(media, 'C0001.broadcast.srt'), 'utf8')).toMatch(/-->/);
  });
});
