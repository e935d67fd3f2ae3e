// Soak: 200 files of 20–60 minutes of simulated media through the sandbox's realistic profile
// (queue delays, processing at 0.2–0.5 × duration, slow exports, an occasional 503), time-compressed
// by the speed factor so it runs in minutes. Every file must complete, at ≤ 4 service requests each.
// The files are a quarter-second long; the sandbox's bench/test-only duration tag (a RIFF comment,
// see main/sandbox/media-probe.ts) says how long each one counts as.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jobIds } from '../../dist/main/adapters/queue/intake.js';
import { seededUnit } from '../../dist/main/sandbox/profile.js';
import { Runtime } from '../../dist/main/runtime/runtime.js';
import { fmt, KEY, requestCount, sandboxProcess } from './common.js';

const TAG = 'sluice-sandbox-duration-ms=';

/** A short mono 16-bit WAV whose LIST/INFO comment claims `durationMs` to the sandbox. */
function writeTaggedWav(file, seed, durationMs) {
  const rate = 8000;
  const samples = 2000;
  const comment = Buffer.from(`${TAG}${durationMs}\0`, 'latin1');
  const icmt = Buffer.concat([
    Buffer.from('ICMT'),
    u32(comment.length),
    comment,
    comment.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0),
  ]);
  const list = Buffer.concat([Buffer.from('LIST'), u32(4 + icmt.length), Buffer.from('INFO'), icmt]);
  const fmtChunk = Buffer.alloc(24);
  fmtChunk.write('fmt ', 0);
  fmtChunk.writeUInt32LE(16, 4);
  fmtChunk.writeUInt16LE(1, 8);
  fmtChunk.writeUInt16LE(1, 10);
  fmtChunk.writeUInt32LE(rate, 12);
  fmtChunk.writeUInt32LE(rate * 2, 16);
  fmtChunk.writeUInt16LE(2, 20);
  fmtChunk.writeUInt16LE(16, 22);
  const data = Buffer.alloc(8 + samples * 2);
  data.write('data', 0);
  data.writeUInt32LE(samples * 2, 4);
  data.writeInt16LE((seed % 30000) + 1, 8 + 2 * (seed % samples));
  const body = Buffer.concat([Buffer.from('WAVE'), fmtChunk, list, data]);
  writeFileSync(file, Buffer.concat([Buffer.from('RIFF'), u32(body.length), body]));
}

function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

export async function benchSoak(work, log) {
  const n = Number(process.env.SLUICE_BENCH_SOAK_FILES ?? 200);
  const speed = Number(process.env.SLUICE_BENCH_SOAK_SPEED ?? 0.02);
  const seed = 1;
  const folder = path.join(work, 'soak');
  mkdirSync(folder, { recursive: true });
  let mediaMs = 0;
  for (let i = 0; i < n; i++) {
    const minutes = 20 + seededUnit(seed, `soak-file-${i}`) * 40;
    const durationMs = Math.round(minutes * 60_000);
    mediaMs += durationMs;
    writeTaggedWav(path.join(folder, `take-${String(i).padStart(4, '0')}.wav`), i, durationMs);
  }
  const sb = await sandboxProcess({
    SLUICE_SANDBOX_PROFILE: 'realistic',
    SLUICE_SANDBOX_SPEED_FACTOR: String(speed),
    SLUICE_SANDBOX_SEED: String(seed),
  });
  try {
    log(`soak: ${n} files, ${fmt(mediaMs / 3_600_000, 1)} h of simulated media, realistic profile × ${speed}`);
    const rt = await Runtime.open({
      stateDir: path.join(work, 'soak-state'),
      connection: { baseUrl: sb.url },
      credentials: { kind: 'apiKey', apiKey: KEY },
    });
    const before = requestCount(await sb.stats());
    await rt.start();
    const started = performance.now();
    const ids = jobIds(await rt.queue.addPaths([folder]));
    const keepAlive = setInterval(() => undefined, 60_000);
    let jobs;
    try {
      jobs = await rt.queue.whenSettled(ids);
    } finally {
      clearInterval(keepAlive);
    }
    const ms = performance.now() - started;
    await rt.close();
    const stats = await sb.stats();
    const perFile = (requestCount(stats) - before) / n;
    const done = jobs.filter((j) => j.state === 'completed').length;
    const retried = jobs.reduce(
      (k, j) => k + Math.max(0, j.attempts.upload - 1) + Math.max(0, j.attempts.export - 1),
      0,
    );
    // What the soak stands for at real speed: the same profile without the compression.
    const realMinutes = ms / speed / 60_000;
    return [
      {
        name: `Soak, ${n} files of 20–60 min (realistic profile)`,
        value: `${done}/${n} completed, ${fmt(perFile)} req/file`,
        baseline: `${fmt(mediaMs / 3_600_000, 1)} h of media in ${fmt(ms / 1000, 1)} s (≈ ${fmt(realMinutes, 0)} min at speed 1)`,
        ratio: fmt(perFile / 4),
        target: 'all done, ≤ 4 req/file',
        met: done === n && perFile <= 4,
        note: `sandbox speed factor ${speed} scales the profile's queue delay, processing (0.2–0.5 × duration) and export time; requests by operation: ${JSON.stringify(stats)}; upload/export attempts beyond the first: ${retried}`,
      },
    ];
  } finally {
    await sb.stop();
  }
}
