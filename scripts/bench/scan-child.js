// One `watch` start on a folder that already holds many files, in a fresh process (so its peak
// RSS is its own): prints when the first file started uploading (or, without a service, was
// queued), when the first walk ended, when the last file was queued, and the peak RSS.
// argv: folder stateDir expectedFiles [serviceUrl]
import { Runtime } from '../../dist/main/runtime/runtime.js';
import { KEY } from './common.js';

const [folder, stateDir, expected, url] = process.argv.slice(2);
const n = Number(expected);
const t0 = performance.now();
const rt = await Runtime.open({
  stateDir,
  connection: { baseUrl: url ?? 'http://127.0.0.1:9' },
  credentials: { kind: 'apiKey', apiKey: KEY },
});
await rt.updateSettings((s) => ({ ...s, watchFolders: [{ id: 'scan', path: folder }] }));
if (!url) rt.queue.pause('benchmark: queue only');
let added = 0;
let firstUpload;
let scanned;
let allQueued;
const done = new Promise((resolve) => (allQueued = resolve));
rt.on((e) => {
  if (e.type === 'job:added') {
    if (!url && firstUpload === undefined) firstUpload = performance.now() - t0;
    if (++added === n) allQueued(performance.now() - t0);
  } else if (e.type === 'job:updated' && e.job.state === 'uploading' && firstUpload === undefined) {
    firstUpload = performance.now() - t0;
  } else if (e.type === 'folder:status' && e.status === 'watching' && scanned === undefined) {
    scanned = performance.now() - t0;
  }
});
await rt.start({ watch: true });
const startedMs = performance.now() - t0;
const queuedMs = await done;
await rt.close();
const peakRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify({ firstUpload, scanned, startedMs, queuedMs, peakRssMb, added })}\n`);
