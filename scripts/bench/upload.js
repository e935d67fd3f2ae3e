// Upload throughput of one big file: Sluice's client vs `curl -T` to the same sandbox, with the
// client's peak RSS (its own process).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, ftruncateSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { TEMPLATE_IDS } from '../../dist/main/service/templates.js';
import { fmt, KEY, median, root, sandboxProcess } from './common.js';

const run = promisify(execFile);
const RUNS = 5;

export async function benchUpload(work, log) {
  const mb = Number(process.env.SLUICE_BENCH_UPLOAD_MB ?? 2048);
  const file = path.join(work, 'big.bin');
  const fd = openSync(file, 'w');
  ftruncateSync(fd, mb * 1024 * 1024); // sparse: the disk is not the bottleneck being measured
  closeSync(fd);
  const size = mb * 1024 * 1024;
  const sb = await sandboxProcess();
  const curlMs = [];
  const sluiceMs = [];
  const rss = [];
  try {
    const curlRun = async () => {
      const url = `${sb.url}/http-gateway/api/v1/upload?streamConfigurationTemplateId=${TEMPLATE_IDS.transcription}&id=${randomUUID()}&persist=true`;
      const c = await run('curl', [
        '-sS',
        '-o',
        '/dev/null',
        '-w',
        '%{time_total}',
        '-X',
        'POST',
        '-T',
        file,
        '-H',
        `Authorization: Basic ${KEY}`,
        '-H',
        'Content-Type: application/octet-stream',
        url,
      ]);
      return Number(c.stdout) * 1000;
    };
    const sluiceRun = async () => {
      const s = await run(process.execPath, [path.join(root, 'scripts/bench/upload-child.js'), sb.url, KEY, file], {
        maxBuffer: 1 << 20,
      });
      const r = JSON.parse(s.stdout);
      if (r.bytes !== size) throw new Error(`upload sent ${r.bytes} of ${size} bytes`);
      rss.push(r.maxRssBytes);
      return r.ms;
    };
    // One discarded run of each first: the first large upload pays one-time costs (page cache of
    // the file, the sandbox's first temp file) that would land on whichever tool went first.
    log(`upload ${mb} MiB: warm-up`);
    await curlRun();
    await sluiceRun();
    for (let i = 0; i < RUNS; i++) {
      log(`upload ${mb} MiB: run ${i + 1}/${RUNS}`);
      // Alternate who goes first, so neither always follows the other's leftovers.
      if (i % 2 === 0) {
        curlMs.push(await curlRun());
        sluiceMs.push(await sluiceRun());
      } else {
        sluiceMs.push(await sluiceRun());
        curlMs.push(await curlRun());
      }
    }
  } finally {
    await sb.stop();
    rmSync(file, { force: true });
  }
  const mbps = (ms) => size / 1e6 / (ms / 1000);
  const sluice = mbps(median(sluiceMs));
  const curl = mbps(median(curlMs));
  const ratio = sluice / curl;
  const peak = Math.max(...rss) / 1e6;
  return [
    {
      name: `Upload ${mb} MiB to the sandbox`,
      value: `${fmt(sluice, 0)} MB/s`,
      baseline: `curl -T: ${fmt(curl, 0)} MB/s`,
      ratio: fmt(ratio),
      target: '≥ 0.95',
      met: ratio >= 0.95,
      note: `medians of ${RUNS} runs each (Sluice ${sluiceMs.map((x) => fmt(x / 1000, 1)).join('/')} s, curl ${curlMs.map((x) => fmt(x / 1000, 1)).join('/')} s)`,
    },
    {
      name: 'Peak RSS of the uploading process',
      value: `${fmt(peak, 0)} MB`,
      baseline: `file size ${fmt(size / 1e6, 0)} MB`,
      ratio: fmt(peak / (size / 1e6), 3),
      target: '< 200 MB',
      met: peak < 200,
    },
  ];
}
