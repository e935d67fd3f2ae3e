// What `sluice process` says about editor files it could not write as one would expect, on the
// line and in `--json`: a four-hour interview (the sandbox's duration tag) whose Resolve markers
// take two EDL files, every marker in one of them; and a silent recording, for which no caption
// or editor file is written, naming the formats left out and why. `sluice rewrite` says the same.
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { makeDurationTaggedWav, makeMediaDir, makeSilenceWav } from '../helpers/media.js';
import { buildCli, runCli } from './run-cli.js';

const KEY = 'editor-notes-key';
let dir: string;
let sandbox: Sandbox;
const env = { SLUICE_API_KEY: KEY };
const at = (state: string): string[] => ['--base-url', sandbox.url, '--state-dir', path.join(dir, state)];

interface JsonRun {
  jobs: Array<{ state: string; results: string[]; notes: string[] }>;
}

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-editor-notes-');
  // Four simulated hours processed in about 15 s.
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.001 });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

const edlEvents = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^\d{3} .* (\S+) (\S+) {2}$/gm)].map((m) => m[1]!);

describe('sluice process: what the editor files hold, said', () => {
  it('four hours of turns: Resolve gets every marker in two EDL files, and the run says which and why', async () => {
    const wav = await makeDurationTaggedWav(dir, 'Four hours.wav', 4 * 3600 * 1000);
    const args = ['--formats', 'edl,fcpxml', '--template', TEMPLATE_IDS.diarization];
    const r = await runCli(['process', wav, ...args, '--json', ...at('long')], env, undefined, 120_000);
    expect(r.code, r.out).toBe(0);
    const job = (JSON.parse(r.stdout) as JsonRun).jobs[0]!;
    const edls = job.results.filter((f) => f.endsWith('.edl'));
    expect(edls.map((f) => path.basename(f))).toEqual(['Four hours.edl', 'Four hours.markers-2.edl']);
    const events = edls.map(edlEvents);
    expect(events[0]).toHaveLength(999);
    expect(events[1]!.length).toBeGreaterThan(0);
    expect(job.notes).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${events.flat().length} markers are more than one CMX 3600 EDL holds .* in 2 files, each on the same timeline start: Four hours\\.edl, Four hours\\.markers-2\\.edl\\.`,
        ),
      ),
    );
    // Every marker FCPXML places (one per frame: Resolve keeps one) is in one of the EDLs, in order.
    const fcpxml = readFileSync(
      job.results.find((f) => f.endsWith('.fcpxml'))!,
      'utf8',
    );
    const starts = new Set([...fcpxml.matchAll(/<marker start="([^"]+)"/g)].map((m) => m[1]));
    expect(starts.size).toBeGreaterThan(999);
    expect(events.flat()).toHaveLength(starts.size);
    const all = events.flat();
    all.forEach((tc, i) => i > 0 && expect(tc > all[i - 1]!, tc).toBe(true));

    const again = await runCli(['rewrite', wav, '--state-dir', path.join(dir, 'long')], env, undefined, 60_000);
    expect(again.code, again.out).toBe(0);
    expect(again.stdout).toMatch(
      /Four hours\.markers-2\.edl.*markers are more than one CMX 3600 EDL holds.*in 2 files/s,
    );
  }, 180_000);

  it('a silent recording: only the JSON, and the run names the formats not written and why', async () => {
    const wav = await makeSilenceWav(dir, 'Room tone.wav', 2);
    const args = ['--formats', 'srt,fcpxml,edl'];
    const r = await runCli(['process', wav, ...args, '--json', ...at('silent')], env, undefined, 60_000);
    expect(r.code, r.out).toBe(0);
    const job = (JSON.parse(r.stdout) as JsonRun).jobs[0]!;
    expect(job.results.map((f) => path.basename(f))).toEqual(['Room tone.json']);
    const why =
      /^No speech found: the media holds no spoken words, so srt, fcpxml, edl were not written \(captions, text and editor files are made from the words/;
    expect(job.notes).toEqual([expect.stringMatching(why)]);
    const again = await runCli(['rewrite', wav, '--state-dir', path.join(dir, 'silent')], env, undefined, 60_000);
    expect(again.code, again.out).toBe(0);
    expect(again.stdout).toMatch(/Room tone\.json — No speech found: .*srt, fcpxml, edl were not written/);
  }, 120_000);
});
