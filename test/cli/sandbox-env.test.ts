// SLUICE_SANDBOX_* reach every embedded sandbox, not only `sluice sandbox`: `process`, `watch`,
// `serve` (what `npm start` opens without Electron) and the desktop app (Runtime.open with the
// process environment, as main/index.ts calls it). An invalid value stops start-up and names the
// variable.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Runtime } from '../../main/runtime/runtime.js';
import { sandboxBehaviourFromEnv, sandboxOptionsFromEnv } from '../../main/sandbox/index.js';
import { API_PREFIX, SANDBOX } from '../../main/service/policy.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli, runCli, startCli, type RunningCli } from './run-cli.js';

let dir: string;
beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-sandbox-env-');
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const FAULTS = { rateLimit: { everyKth: 1000, retryAfterS: 1 }, latency: { ms: 1 } };
const ADMIN = { authorization: `Basic ${SANDBOX.apiKey}` };

/** The embedded sandbox's URL, from the notice every command prints when results are simulated. */
function sandboxUrl(out: string): string | undefined {
  return /embedded sandbox at (http:\/\/\S+)/.exec(out)?.[1];
}

async function tokenExpiresIn(url: string): Promise<number> {
  const res = await fetch(`${url}${API_PREFIX.auth}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: SANDBOX.clientId,
      client_secret: SANDBOX.clientSecret,
    }).toString(),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { expires_in: number }).expires_in;
}

async function faultsOf(url: string): Promise<unknown> {
  const res = await fetch(`${url}/sandbox/admin/faults`, { headers: ADMIN });
  expect(res.status).toBe(200);
  return res.json();
}

describe('SLUICE_SANDBOX_* variables', () => {
  it.each([
    ['SLUICE_SANDBOX_SPEED_FACTOR', '0.5', { speedFactor: 0.5 }],
    ['SLUICE_SANDBOX_FIXED_PROCESSING_MS', '6000', { fixedProcessingMs: 6000 }],
    ['SLUICE_SANDBOX_RETENTION_MS', '60000', { retentionMs: 60000 }],
    ['SLUICE_SANDBOX_MAX_CONCURRENT_STREAMS', '3', { maxConcurrentStreams: 3 }],
    ['SLUICE_SANDBOX_TOKEN_EXPIRES_IN_S', '30', { tokenExpiresInS: 30 }],
    ['SLUICE_SANDBOX_FAULTS', JSON.stringify(FAULTS), { faults: FAULTS }],
    ['SLUICE_SANDBOX_PROFILE', 'realistic', { profile: 'realistic' }],
    ['SLUICE_SANDBOX_SEED', '42', { seed: 42 }],
  ])('%s=%s becomes a sandbox option', (name, value, option) => {
    expect(sandboxBehaviourFromEnv({ [name]: value })).toEqual(option);
    expect(sandboxOptionsFromEnv({ [name]: value })).toEqual(option);
  });

  it.each([
    ['SLUICE_SANDBOX_SPEED_FACTOR', 'fast'],
    ['SLUICE_SANDBOX_SPEED_FACTOR', '-1'],
    ['SLUICE_SANDBOX_FIXED_PROCESSING_MS', '6s'],
    ['SLUICE_SANDBOX_RETENTION_MS', '0'],
    ['SLUICE_SANDBOX_MAX_CONCURRENT_STREAMS', '1.5'],
    ['SLUICE_SANDBOX_TOKEN_EXPIRES_IN_S', '0'],
    ['SLUICE_SANDBOX_FAULTS', '{rateLimit:'],
    ['SLUICE_SANDBOX_FAULTS', '{"rateLimit":{"everyKth":0}}'],
    ['SLUICE_SANDBOX_PROFILE', 'fast'],
    ['SLUICE_SANDBOX_SEED', '-3'],
  ])('%s=%s is refused with the variable named', (name, value) => {
    expect(() => sandboxBehaviourFromEnv({ [name]: value })).toThrow(name);
  });
});

describe('the embedded sandbox of the desktop app (Runtime.open)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (k.startsWith('SLUICE_SANDBOX_')) delete process.env[k];
    Object.assign(process.env, saved);
  });

  it('takes its timing, token lifetime and faults from the environment', async () => {
    process.env.SLUICE_SANDBOX_FIXED_PROCESSING_MS = '2000';
    process.env.SLUICE_SANDBOX_TOKEN_EXPIRES_IN_S = '42';
    process.env.SLUICE_SANDBOX_FAULTS = JSON.stringify(FAULTS);
    const media = await makeToneWav(dir, 'desktop.wav', 1);
    const runtime = await Runtime.open({ stateDir: path.join(dir, 'desktop-state') });
    try {
      const url = runtime.connection.sandbox?.url;
      expect(url).toBeDefined();
      expect(await tokenExpiresIn(url!)).toBe(42);
      expect(await faultsOf(url!)).toEqual(FAULTS);
      await runtime.start();
      const started = Date.now();
      const [added] = await runtime.queue.addPaths([media]);
      expect(added?.outcome).toBe('added');
      const jobs = await runtime.queue.whenSettled(added?.outcome === 'added' ? [added.jobId] : []);
      expect(jobs.map((j) => j.state)).toEqual(['completed']);
      // 1 s of media at the default speed factor would take 50 ms.
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    } finally {
      await runtime.close();
    }
  });

  it('does not start with an invalid value', async () => {
    process.env.SLUICE_SANDBOX_RETENTION_MS = 'forever';
    await expect(Runtime.open({ stateDir: path.join(dir, 'desktop-bad') })).rejects.toThrow(
      'SLUICE_SANDBOX_RETENTION_MS',
    );
  });
});

describe('the embedded sandbox of the command line', () => {
  let running: RunningCli | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  it('sluice process --sandbox takes SLUICE_SANDBOX_FIXED_PROCESSING_MS', async () => {
    const media = await makeToneWav(dir, 'process.wav', 1);
    const r = await runCli(['process', media, '--sandbox', '--state-dir', path.join(dir, 'process-state')], {
      SLUICE_SANDBOX_FIXED_PROCESSING_MS: '3000',
    });
    expect(r.code, r.out).toBe(0);
    // Plain progress: one line per state change; processing lasts the fixed time, not 50 ms.
    const at = (state: string): number => r.lines.find((l) => l.text.startsWith(`${state} `))?.at ?? NaN;
    expect(at('exporting') - at('processing')).toBeGreaterThanOrEqual(2500);
  });

  it.each([
    ['watch', (state: string) => ['watch', path.dirname(state), '--state-dir', state]],
    ['serve', (state: string) => ['serve', '--state-dir', state]],
  ])('sluice %s takes the token lifetime and the fault plan', async (name, args) => {
    const folder = path.join(dir, `${name}-folder`);
    await mkdir(folder, { recursive: true });
    running = startCli(args(path.join(folder, 'state')), {
      SLUICE_SANDBOX_TOKEN_EXPIRES_IN_S: '77',
      SLUICE_SANDBOX_FAULTS: JSON.stringify(FAULTS),
    });
    const out = await running.waitFor(/embedded sandbox at http:\S+/);
    const url = sandboxUrl(out)!;
    expect(await tokenExpiresIn(url)).toBe(77);
    expect(await faultsOf(url)).toEqual(FAULTS);
  });

  it.each([
    ['process', ['process', 'missing.wav', '--sandbox'], 'SLUICE_SANDBOX_SPEED_FACTOR', 'fast'],
    ['watch', ['watch', '--sandbox'], 'SLUICE_SANDBOX_MAX_CONCURRENT_STREAMS', 'many'],
    ['serve', ['serve', '--sandbox'], 'SLUICE_SANDBOX_FIXED_PROCESSING_MS', '-5'],
    ['usage', ['usage', '--sandbox'], 'SLUICE_SANDBOX_FAULTS', '{"nope":1}'],
  ])('sluice %s (%j) stops at start-up on an invalid %s', async (name, args, variable, value) => {
    const folder = path.join(dir, `${name}-bad`);
    await mkdir(folder, { recursive: true });
    const extra = name === 'watch' ? [folder] : [];
    const r = await runCli([...args, ...extra, '--state-dir', path.join(folder, 'state')], { [variable]: value });
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).toContain(variable);
  });
});
