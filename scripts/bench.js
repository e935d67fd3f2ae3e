#!/usr/bin/env node
// `npm run bench`: Sluice's speed and memory targets, each against a baseline measured in the same
// run, printed as one table (medians; these machines are noisy). Not part of the tests.
//
// SLUICE_BENCH_ONLY=upload,linespeed,makespan,requests,watch,startup,soak,transcript,highlight,
//                   scan,copying,race,fixed,history           run a subset
// SLUICE_BENCH_UPLOAD_MB=2048                                 size of the upload file
// SLUICE_BENCH_LINE_BPS=300000                                the throttled line of linespeed (bytes/s)
// SLUICE_BENCH_FILES=1000, SLUICE_BENCH_INFLIGHT=500          files of makespan, of requests
// SLUICE_BENCH_WATCH_FILES=10000, SLUICE_BENCH_HISTORY=100000 files of watch, jobs of startup
// SLUICE_BENCH_SOAK_FILES=200, SLUICE_BENCH_SOAK_SPEED=0.02     files of soak, its time compression
// SLUICE_BENCH_TRANSCRIPTS=10000                              transcripts searched by transcript
// SLUICE_BENCH_HIGHLIGHT_SECONDS=15                           each of highlight's 5 stretches of playback
// SLUICE_BENCH_SCAN_FILES=100000, SLUICE_BENCH_COPYING_FILES=2000  files of scan, of copying
// SLUICE_BENCH_HISTORY_JOBS=100000                            archived jobs History queries
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Table from 'cli-table3';
import { benchHighlight } from './bench/highlight.js';
import { benchHistory } from './bench/history.js';
import { benchMakespan, benchRequests } from './bench/queue.js';
import { benchStartup, benchWatch } from './bench/local.js';
import { benchCopying, benchFixed, benchRace, benchScan } from './bench/scale.js';
import { benchSoak } from './bench/soak.js';
import { benchTranscript } from './bench/transcript.js';
import { benchUpload } from './bench/upload.js';
import { benchLineSpeed } from './bench/line-speed.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.main.json'], { cwd: root, stdio: 'inherit' });
// The commands run from their one-file build: made afresh, or a row would time the last build.
execFileSync(process.execPath, [path.join(root, 'scripts/bundle-cli.js')], { cwd: root, stdio: 'inherit' });

const only = process.env.SLUICE_BENCH_ONLY?.split(',');
const want = (name) => !only || only.includes(name);
// The highlight bench drives the renderer as it is now.
if (want('highlight')) {
  execFileSync(path.join(root, 'node_modules/.bin/vite'), ['build', '-c', 'renderer/vite.config.ts', '-l', 'error'], {
    cwd: root,
    stdio: 'inherit',
  });
}
const work = await mkdtemp(path.join(tmpdir(), 'sluice-bench-'));
const rows = [];
const log = (m) => console.error(`bench: ${m}`);

try {
  if (want('upload')) rows.push(...(await benchUpload(work, log)));
  if (want('linespeed')) rows.push(...(await benchLineSpeed(work, log)));
  if (want('makespan')) rows.push(...(await benchMakespan(work, log)));
  if (want('requests')) rows.push(...(await benchRequests(work, log)));
  if (want('watch')) rows.push(...(await benchWatch(work, log)));
  if (want('startup')) rows.push(...(await benchStartup(work, log)));
  if (want('soak')) rows.push(...(await benchSoak(work, log)));
  if (want('transcript')) rows.push(...(await benchTranscript(work, log)));
  if (want('highlight')) rows.push(...(await benchHighlight(work, log)));
  if (want('scan')) rows.push(...(await benchScan(work, log)));
  if (want('copying')) rows.push(...(await benchCopying(work, log)));
  if (want('race')) rows.push(...(await benchRace(work, log)));
  if (want('fixed')) rows.push(...(await benchFixed(work, log)));
  if (want('history')) rows.push(...(await benchHistory(work, log)));
} finally {
  await rm(work, { recursive: true, force: true });
}

const table = new Table({
  head: ['Measure', 'Sluice', 'Baseline (same run)', 'Ratio', 'Target', 'Met'],
  style: { head: [], border: [] },
  wordWrap: true,
  colWidths: [34, 20, 34, 8, 16, 5],
});
for (const r of rows) table.push([r.name, r.value, r.baseline, r.ratio, r.target, r.met ? 'yes' : 'NO']);
console.log(table.toString());
for (const r of rows) if (r.note) console.log(`- ${r.name}: ${r.note}`);
mkdirSync(path.join(root, 'bench-results'), { recursive: true });
writeFileSync(path.join(root, 'bench-results', 'latest.json'), JSON.stringify(rows, null, 2));
