#!/usr/bin/env node
// The long kill -9 run (test/cli/kill.test.ts is the short one): `sluice process` over many files,
// killed with SIGKILL at random moments many times, then run to the end. The sandbox throttles
// uploads, alternating between runs: like a buffering proxy (a kill after the last byte left still
// delivers the file: the stream must be adopted or canceled) and on the connection itself (a kill
// cuts the body: the stream fails and the file goes again); every other cancel is refused. Reports
// files lost, duplicated (processed more than once) and half-written (a result or the journal cut
// short), and how often each recovery ran. Exit code 1 when any count is not zero.
//
// SLUICE_SOAK_FILES=60  SLUICE_SOAK_KILLS=40  SLUICE_SOAK_CONCURRENCY=3
// SLUICE_SOAK_RATE=16000 (bytes/s the sandbox ingests)
// SLUICE_SOAK_MIN_KILL_MS=600, SLUICE_SOAK_MAX_KILL_MS=4000 (a run's life: the CLI needs ~1 s to start)
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KEY, root, sandboxProcess, writeWav } from './bench/common.js';

const num = (name, def) => Number(process.env[name] ?? def);
const FILES = num('SLUICE_SOAK_FILES', 60);
const KILLS = num('SLUICE_SOAK_KILLS', 40);
const CONCURRENCY = num('SLUICE_SOAK_CONCURRENCY', 3);
const RATE = num('SLUICE_SOAK_RATE', 16_000);
const MIN_KILL_MS = num('SLUICE_SOAK_MIN_KILL_MS', 600);
const MAX_KILL_MS = num('SLUICE_SOAK_MAX_KILL_MS', 4000);
const log = (m) => console.error(`soak: ${m}`);

execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.main.json'], { cwd: root, stdio: 'inherit' });
const { JobStore } = await import(path.join(root, 'dist/main/adapters/store/journal/job-store.js'));
const { createClient } = await import(path.join(root, 'dist/main/api/client.js'));

function runCli(args, killAfterMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/sluice.js'), ...args], {
      env: { ...process.env, SLUICE_API_KEY: KEY },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err = (err + d.toString()).slice(-4000)));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, err });
    });
  });
}

/** Lines of the journal that are not whole JSON lines (the store must never leave one behind). */
function tornJournalLines(stateDir) {
  const text = readFileSync(path.join(stateDir, 'jobs.jsonl'), 'utf8');
  const lines = text.split('\n');
  let torn = text.endsWith('\n') ? 0 : 1;
  for (const line of lines.slice(0, -1)) {
    try {
      JSON.parse(line);
    } catch {
      torn++;
    }
  }
  return torn;
}

const work = await mkdtemp(path.join(tmpdir(), 'sluice-soak-'));
const faults = (buffered) => ({
  uploadThrottle: { bytesPerSecond: RATE, buffered },
  serverErrors: { everyKth: 2, operations: ['cancel'], status: 503, retryAfterS: 0 },
});
const sandbox = await sandboxProcess({
  SLUICE_SANDBOX_FIXED_PROCESSING_MS: '300',
  SLUICE_SANDBOX_FAULTS: JSON.stringify(faults(true)),
});
async function setFaults(f) {
  const r = await fetch(`${sandbox.url}/sandbox/admin/faults`, {
    method: 'PUT',
    headers: { authorization: `Basic ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(f),
  });
  if (!r.ok) throw new Error(`setting faults: ${r.status} ${await r.text()}`);
}
try {
  const media = path.join(work, 'media');
  await mkdir(media);
  // 2 s of 8 kHz 16-bit audio: 32 kB, half a second through the throttle at the default rate.
  for (let i = 0; i < FILES; i++) writeWav(path.join(media, `clip ${String(i).padStart(3, '0')}.wav`), 2, i + 1);
  const stateDir = path.join(work, 'state');
  const args = ['process', media, '--base-url', sandbox.url, '--state-dir', stateDir];
  args.push('--concurrency', String(CONCURRENCY));
  const started = Date.now();
  let killed = 0;
  let finishedEarly = 0;
  for (let i = 0; i < KILLS; i++) {
    await setFaults(faults(i % 2 === 0));
    const r = await runCli(args, MIN_KILL_MS + Math.floor(Math.random() * (MAX_KILL_MS - MIN_KILL_MS)));
    if (r.signal === 'SIGKILL') killed++;
    else if (r.code === 0) finishedEarly++;
    else log(`run ${i} exited with ${r.code}: ${r.err.trim().split('\n').slice(-3).join(' | ')}`);
  }
  await setFaults(faults(true));
  const final = await runCli(args);
  if (final.code !== 0)
    log(`final run exited with ${final.code}: ${final.err.trim().split('\n').slice(-5).join(' | ')}`);

  const names = readdirSync(media).filter((f) => f.endsWith('.wav'));
  const files = readdirSync(media);
  const client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'apiKey', apiKey: KEY } });
  const streams = [];
  for await (const s of client.iterateStreams({ size: 100 })) streams.push(s);
  await client.close();
  const jobs = JobStore.snapshot(stateDir);
  const known = new Set(jobs.flatMap((j) => [...(j.streamId ? [j.streamId] : []), ...j.previousStreamIds]));

  const completedBy = new Map();
  for (const s of streams) if (s.state === 'COMPLETED') completedBy.set(s.name, (completedBy.get(s.name) ?? 0) + 1);
  const lost = names.filter((n) => !files.includes(n.replace(/\.wav$/, '.json'))).length;
  const duplicated = [...completedBy.values()].filter((n) => n > 1).length;
  const unaccounted = streams.filter((s) => !known.has(s.streamId)).length;
  let halfWritten = files.filter((f) => f.endsWith('.sluice-tmp')).length + tornJournalLines(stateDir);
  for (const f of files.filter((x) => x.endsWith('.json'))) {
    try {
      JSON.parse(readFileSync(path.join(media, f), 'utf8'));
    } catch {
      halfWritten++;
    }
  }
  const report = {
    files: FILES,
    kills: killed,
    runsFinishedBeforeTheirKill: finishedEarly,
    seconds: Math.round((Date.now() - started) / 1000),
    streams: streams.length,
    streamsAbandoned: streams.filter((s) => s.state !== 'COMPLETED').length,
    cancelRequests: (await sandbox.stats()).cancel ?? 0,
    completedJobs: jobs.filter((j) => j.state === 'completed').length,
    lost,
    duplicated,
    halfWritten,
    streamsNotInHistory: unaccounted,
  };
  console.log(JSON.stringify(report, null, 2));
  process.exitCode = lost + duplicated + halfWritten + unaccounted === 0 && final.code === 0 ? 0 : 1;
} finally {
  await sandbox.stop();
  await rm(work, { recursive: true, force: true });
}
