// The local sandbox of the service: all four services, the token endpoint and the configuration
// service on one loopback origin (C1). The app's embedded default and the test bed of the client.
//
// Standalone use: `startSandbox()` prints nothing unless `logger` is given. When no `faults`
// option is given, SLUICE_SANDBOX_FAULTS (JSON FaultConfig, see faults.ts) is read.
// Note: SLUICE_SANDBOX_* variables reach every sandbox. sandboxBehaviourFromEnv() is read where the
// embedded sandbox starts (runtime/connection.ts: `process`, `watch`, `serve`, `usage`,
// the desktop app); sandboxOptionsFromEnv() adds port, key and data folder for `sluice sandbox`.
// Admin endpoints: see routes-admin.ts.
//
// Note: choices the sandbox makes beyond contract §17 (numbers in SANDBOX / SANDBOX_BEHAVIOUR):
// - link bodies (C8) are fetched (http, https, redirects) and their media probed like an upload's;
//   a link that cannot be fetched, or is not media, fails the first processor (link-fetch.ts);
// - a media comment tag `sluice-sandbox-duration-ms=N` sets the duration, and one reading
//   `sluice-sandbox-speech=TEXT` what the simulated recognition hears, spelt as plain recognition
//   spells unknown names (bench/test fixtures only, media-probe.ts); the realistic profile
//   (profile.ts) adds queue delays, slow exports and occasional 503s;
// - the enhanced transcription respells each run of words that sounds like a term of
//   `etVocabulary` (same letters, accents and case aside) as the vocabulary spells it
//   (enhanced-transcript.ts);
// - processors run one after another, splitting the processing time by fixed weights; an injected
//   processing failure happens halfway through the failing processor;
// - "speechless" (§6.6) = no audio track, shorter than minSpeechMs, or a 16-bit WAV under silencePeak;
// - results are seeded by the SHA-256 of the body: the same file gives the same transcript;
// - `+value` on an array-valued property appends; `-` deletes the property; a path patch to an
//   unknown property, or one replacing an object, is a 400 PROCESSOR_PROPERTIES_VALIDATION_ERROR;
// - every processor is a sink tagged [<id>, "main"] (as in the published example); export `tags`
//   default `main`, and a request whose tags match no persisted sink answers 204; echo streams 204;
// - the sandbox-only transcoding template exports `{ media: { durationMs, channels, sampleRate, container } }`;
// - dynamic webhooks are validated and recorded, never delivered;
// - usage: storageSize = bytes of the persisted result, egressSize = bytes exported, both on the
//   first processor; llm tokens ≈ characters / 4; audio length is counted for completed processors;
// - token endpoint failures (bad client, grant) are all 400 with an OAuth body, as §2.2 lists.
import { mkdtemp, mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RETENTION, SANDBOX } from '../service/policy.js';
import { TokenStore } from './auth.js';
import type { SandboxContext } from './context.js';
import { FaultState, parseFaultConfig, type FaultConfig } from './faults.js';
import { LINK_FETCH } from './link-fetch.js';
import { createProfile, parseProfileName, type SandboxProfileName } from './profile.js';
import { buildServer } from './server.js';
import { StreamStore } from './stream-store.js';
import { UsageLedger } from './usage-ledger.js';
import { usageRecords } from './usage-records.js';
import type { UsageRecordDto } from '../service/types.js';

export type { FaultConfig } from './faults.js';
export type { SandboxProfileName } from './profile.js';

export interface SandboxOptions {
  /** 0 / undefined = random free port */
  port?: number;
  /** default '127.0.0.1' */
  host?: string;
  /** default SANDBOX.apiKey */
  apiKey?: string;
  clientId?: string;
  clientSecret?: string;
  /**
   * Where uploaded bodies go, as `<streamId>.bin` (kept, so tests can compare bytes). Default: a
   * fresh temp dir removed on close, where each body is deleted once probed (disk stays flat).
   */
  dataDir?: string;
  /**
   * Processing time = media duration × speedFactor (default SANDBOX.defaultSpeedFactor). Under the
   * realistic profile it scales every duration of the profile instead (default 1: real time).
   */
  speedFactor?: number;
  /** 'default', or 'realistic' (queue delays, 0.2–0.5 × duration, slow exports, some 503s). */
  profile?: SandboxProfileName;
  /** Seed of the realistic profile's randomness (default 1): same seed, same timings. */
  seed?: number;
  /** Link bodies: how long to wait for a silent server, and extra trusted certificates (tests). */
  linkFetch?: { timeoutMs?: number; ca?: string };
  /** If set, processing takes exactly this long regardless of duration (benchmarks). */
  fixedProcessingMs?: number;
  /** default RETENTION.defaultMs */
  retentionMs?: number;
  tokenExpiresInS?: number;
  /** Off (null) by default. */
  maxConcurrentStreams?: number | null;
  /** Accept loopback/private webhook URLs (C25 test flag). */
  allowLocalWebhooks?: boolean;
  faults?: FaultConfig;
  /** Optional request log (method, path, status, ms); never logs credentials or query strings. */
  logger?: (line: string) => void;
  /** Clock for tests (epoch ms). */
  now?: () => number;
  /**
   * A file where the usage of every stream is kept, so the usage report still counts streams an
   * earlier run processed (the embedded sandbox's, in the state folder). Absent: memory only.
   */
  usageFile?: string;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:41234 — base URL of all services */
  readonly url: string;
  readonly port: number;
  setFaults(f: FaultConfig): void;
  getFaults(): FaultConfig;
  /** Requests served, by operation name (upload, findById, findAll, cancel, components, export, usageReport, streamUsage, token, templateList, templateGet, templatePatch, templatePut, adminFaults, adminStats, unknown). */
  stats(): Record<string, number>;
  resetStats(): void;
  /** Resolves once the usage kept in `usageFile` is on disk (tests). */
  usageSaved(): Promise<void>;
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const now = opts.now ?? Date.now;
  const ownDir = opts.dataDir === undefined;
  if (ownDir) await removeStaleDirs(tmpdir());
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-`)));
  if (!ownDir) await mkdir(dataDir, { recursive: true });
  const faults = new FaultState(opts.faults ?? faultsFromEnv() ?? {});
  const profile = createProfile(opts.profile ?? 'default', { seed: opts.seed ?? 1, scale: opts.speedFactor ?? 1 });
  const store = new StreamStore(now, {
    speedFactor: opts.speedFactor ?? SANDBOX.defaultSpeedFactor,
    fixedProcessingMs: opts.fixedProcessingMs,
    retentionMs: opts.retentionMs ?? RETENTION.defaultMs,
    profile,
  });
  const ledger = opts.usageFile !== undefined ? await UsageLedger.open(opts.usageFile) : null;
  const current = (at: number): Map<string, UsageRecordDto[]> =>
    new Map(store.all().map((r) => [r.streamId, usageRecords(r, at)]));
  const usage = (at: number): UsageRecordDto[] =>
    ledger ? ledger.records(current(at)) : [...current(at).values()].flat();
  // Kept as it changes, not only when asked: a crash before the next report loses nothing.
  if (ledger) store.onChange = () => void usage(now());
  const ctx: SandboxContext = {
    store,
    usage,
    profile,
    linkFetch: {
      timeoutMs: opts.linkFetch?.timeoutMs ?? LINK_FETCH.timeoutMs,
      ...(opts.linkFetch?.ca !== undefined ? { ca: opts.linkFetch.ca } : {}),
    },
    faults,
    tokens: new TokenStore(now, opts.tokenExpiresInS ?? SANDBOX.tokenExpiresInS),
    creds: {
      apiKey: opts.apiKey ?? SANDBOX.apiKey,
      clientId: opts.clientId ?? SANDBOX.clientId,
      clientSecret: opts.clientSecret ?? SANDBOX.clientSecret,
    },
    dataDir,
    keepBodies: !ownDir,
    allowLocalWebhooks: opts.allowLocalWebhooks ?? false,
    maxConcurrentStreams: opts.maxConcurrentStreams ?? null,
    stats: new Map(),
    now,
  };
  const app = buildServer(ctx, opts.logger);
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closed = false;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    setFaults: (f) => faults.set(parseFaultConfig(f)),
    getFaults: () => faults.get(),
    stats: () => Object.fromEntries(ctx.stats),
    resetStats: () => ctx.stats.clear(),
    usageSaved: async () => ledger?.flushed(),
    async close() {
      if (closed) return;
      closed = true;
      ctx.store.close();
      await app.close();
      if (ledger) {
        ledger.records(current(now()));
        await ledger.flushed();
      }
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const TEMP_PREFIX = 'sluice-sandbox-';

/**
 * The temp dirs of sandboxes whose process is gone (killed before it could close): whatever
 * uploads they were receiving stay on disk otherwise. A dir names its process; live ones are kept.
 */
async function removeStaleDirs(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const m = new RegExp(`^${TEMP_PREFIX}(\\d+)-`).exec(name);
    if (!m || isAlive(Number(m[1]))) continue;
    await rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type EnvNumber = { integer?: boolean; min: number; above?: boolean };

function envNumber(env: NodeJS.ProcessEnv, name: string, rule: EnvNumber): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  const kind = rule.integer ? 'a whole number' : 'a number';
  const bound = `${rule.above ? '>' : '≥'} ${rule.min}`;
  if (!Number.isFinite(n) || (rule.integer && !Number.isInteger(n)) || (rule.above ? n <= rule.min : n < rule.min)) {
    throw new Error(`${name} must be ${kind} ${bound} (got "${raw}").`);
  }
  return n;
}

/** SLUICE_SANDBOX_FAULTS as a fault plan; a bad plan is an error naming the variable. */
export function faultsFromEnv(env: NodeJS.ProcessEnv = process.env): FaultConfig | undefined {
  const raw = env.SLUICE_SANDBOX_FAULTS;
  if (raw === undefined || raw.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    throw new Error(`SLUICE_SANDBOX_FAULTS is not valid JSON: ${(e as Error).message}`);
  }
  try {
    return parseFaultConfig(json);
  } catch (e) {
    throw new Error(`SLUICE_SANDBOX_FAULTS: ${(e as Error).message}`);
  }
}

/**
 * How the sandbox behaves, from SLUICE_SANDBOX_* variables: for every sandbox, embedded or
 * standalone. An invalid value throws an error naming its variable, so start-up stops.
 */
export function sandboxBehaviourFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxOptions {
  const out: SandboxOptions = {};
  const set = <K extends keyof SandboxOptions>(k: K, v: SandboxOptions[K] | undefined): void => {
    if (v !== undefined) out[k] = v;
  };
  set('speedFactor', envNumber(env, 'SLUICE_SANDBOX_SPEED_FACTOR', { min: 0 }));
  set('fixedProcessingMs', envNumber(env, 'SLUICE_SANDBOX_FIXED_PROCESSING_MS', { min: 0 }));
  set('retentionMs', envNumber(env, 'SLUICE_SANDBOX_RETENTION_MS', { min: 0, above: true }));
  set('tokenExpiresInS', envNumber(env, 'SLUICE_SANDBOX_TOKEN_EXPIRES_IN_S', { integer: true, min: 1 }));
  set('maxConcurrentStreams', envNumber(env, 'SLUICE_SANDBOX_MAX_CONCURRENT_STREAMS', { integer: true, min: 0 }));
  const profile = env.SLUICE_SANDBOX_PROFILE;
  if (profile !== undefined && profile.trim() !== '') out.profile = parseProfileName(profile, 'SLUICE_SANDBOX_PROFILE');
  set('seed', envNumber(env, 'SLUICE_SANDBOX_SEED', { integer: true, min: 0 }));
  const webhooks = env.SLUICE_SANDBOX_ALLOW_LOCAL_WEBHOOKS;
  if (webhooks === '1' || webhooks === 'true') out.allowLocalWebhooks = true;
  set('faults', faultsFromEnv(env));
  return out;
}

/**
 * Options for a standalone sandbox (`sluice sandbox`): its behaviour plus where it listens, the key
 * it accepts and where it keeps uploads. Explicit flags should win over these.
 */
export function sandboxOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxOptions {
  const out = sandboxBehaviourFromEnv(env);
  const port = envNumber(env, 'SLUICE_SANDBOX_PORT', { integer: true, min: 0 });
  if (port !== undefined) {
    if (port > 65535) throw new Error(`SLUICE_SANDBOX_PORT must be a port number (got "${env.SLUICE_SANDBOX_PORT}").`);
    out.port = port;
  }
  if (env.SLUICE_SANDBOX_API_KEY) out.apiKey = env.SLUICE_SANDBOX_API_KEY;
  if (env.SLUICE_SANDBOX_DATA_DIR) out.dataDir = env.SLUICE_SANDBOX_DATA_DIR;
  return out;
}
