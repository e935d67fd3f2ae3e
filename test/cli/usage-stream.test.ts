// `sluice usage --stream ID` and `--file PATH`: one file's cost per operation against the sandbox,
// the AI prompts' tokens on their own line, a total that adds up, and failures in words.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDecimal } from '../../main/engine/decimal.js';
import type { StreamCost } from '../../main/engine/stream-cost.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli, runCli } from './run-cli.js';

const KEY = 'usage-stream-key';
let dir: string;
let state: string;
let sandbox: Sandbox;
let clip: string;
let streamId: string;
const env = { SLUICE_API_KEY: KEY };
const at = (): string[] => ['--base-url', sandbox.url, '--state-dir', state];

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-usage-stream-');
  state = path.join(dir, 'state');
  clip = await makeToneWav(dir, 'episode.wav', 60);
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
  const r = await runCli(['process', clip, '--recipe', 'podcast', ...at()], env, undefined, 90_000);
  expect(r.code, r.out).toBe(0);
  const h = await runCli(['history', '--json', '--state-dir', state], env);
  streamId = (JSON.parse(h.stdout) as Array<{ streamId: string }>)[0]!.streamId;
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('sluice usage --stream', () => {
  it('prints one line per operation, the AI prompts included, and their total', async () => {
    const r = await runCli(['usage', '--stream', streamId, ...at()], env);
    expect(r.code, r.out).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Stream ${streamId}`);
    // Piped: a header, then tab-separated rows.
    expect(lines[1]!.split('\t')).toEqual([
      'Operation',
      'Audio (min)',
      'AI tokens in',
      'AI tokens out',
      'Amount (credits)',
    ]);
    const rows = lines.slice(2).map((l) => l.split('\t'));
    const byName = new Map(rows.map((c) => [c[0], c]));
    expect(byName.get('Batch transcription')?.[1]).toBe('1.0');
    const ai = byName.get('Questions and AI processing');
    expect(Number(ai?.[2])).toBeGreaterThan(0);
    expect(Number(ai?.[3])).toBeGreaterThan(0);
    const total = rows.at(-1)!;
    expect(total[0]).toBe('Total');
    expect(total[4]).toBe(rows.slice(0, -1).reduce((s, c) => addDecimal(s, c[4]!), '0'));
  });

  it('--file finds the stream in History; --json gives the figures; --currency prices them', async () => {
    const r = await runCli(['usage', '--file', clip, '--currency', 'eur', '--json', ...at()], env);
    expect(r.code, r.out).toBe(0);
    const cost = JSON.parse(r.stdout) as StreamCost;
    expect(cost.streamId).toBe(streamId);
    expect(cost.currency).toBe('EUR');
    expect(cost.lines.map((l) => l.operationType)).toContain('LLM_PROCESSING');
  });

  it('says in words when the service does not keep the stream, the id is malformed or History lacks the file', async () => {
    const gone = await runCli(['usage', '--stream', '123e4567-e89b-42d3-a456-426614174000', ...at()], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/The service no longer keeps this file’s usage/);
    const bad = await runCli(['usage', '--stream', 'nonsense', ...at()], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/That is not a stream id/);
    const unknown = await runCli(['usage', '--file', path.join(dir, 'other.wav'), ...at()], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/History has no stream for .*other\.wav/);
    const both = await runCli(['usage', '--stream', streamId, '--start', '2026-11-01T00:00:00Z', ...at()], env);
    expect(both.code).toBe(2);
  });
});
