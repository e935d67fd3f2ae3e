// An impossible `--timecode` is a usage error before anything is sent: `sluice process --timecode
// 99:99:99:99 x.wav` exits 2 and the sandbox sees no upload, where a possible one is processed
// (the same command line otherwise, so the refusal is the timecode's).
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli, runCli } from './run-cli.js';

const KEY = 'timecode-usage-key';
let dir: string;
let sandbox: Sandbox;
let clip: string;
const env = { SLUICE_API_KEY: KEY };
const at = (state: string): string[] => ['--base-url', sandbox.url, '--state-dir', path.join(dir, state)];
const uploads = (): number => sandbox.stats().upload ?? 0;

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-timecode-usage-');
  clip = await makeToneWav(dir, 'x.wav', 2);
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('sluice process --timecode', () => {
  it.each([
    ['99:99:99:99', /--timecode.*99:99:99:99.*hours 00–23/s],
    ['24:00:00:00', /--timecode.*hours 00–23/s],
    ['01:00:00:60', /--timecode.*frame number runs from 00 to 59/s],
  ])(
    '%s exits 2 with a usage error and nothing uploaded',
    async (tc, message) => {
      const before = uploads();
      const r = await runCli(['process', '--timecode', tc, clip, '--formats', 'edl', ...at(`state-${tc}`)], env);
      expect(r.code, r.out).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(uploads()).toBe(before);
    },
    60_000,
  );

  it('a possible start is processed: one upload, and a 2 s clip at 23:59:59:24 moved off midnight, said', async () => {
    const before = uploads();
    const r = await runCli(
      ['process', '--timecode', '23:59:59:24', clip, '--formats', 'edl', ...at('state-ok')],
      env,
      undefined,
      90_000,
    );
    expect(r.code, r.out).toBe(0);
    expect(uploads()).toBe(before + 1);
    // The clip would run past 24:00:00:00: its timeline starts an hour earlier, and the run says so.
    expect(r.out).toMatch(/past midnight.*1 hour earlier, at 22:59:59:24/s);
    const edl = await readFile(path.join(dir, 'x.edl'), 'utf8');
    const ins = [...edl.matchAll(/^\d{3} .* (\S+) (\S+) {2}$/gm)].map((m) => m[1]!);
    expect(ins.length).toBeGreaterThan(0);
    for (const tc of ins) expect(tc >= '22:59:59:24' && tc < '23:00:02:00', tc).toBe(true);
  }, 120_000);
});
