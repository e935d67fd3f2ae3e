// The upload speed the Queue shows against the line's real rate: the sandbox reads uploads at a
// throttled rate from the connection itself (unbuffered), and the speed shown in the header and
// the row is read from 10 s on. Each reading must be within 15% of the line; the worst one is the row.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { QueueModel } from '../../dist/main/ipc/queue-model.js';
import { Runtime } from '../../dist/main/runtime/runtime.js';
import { startSandbox } from '../../dist/main/sandbox/index.js';
import { fmt, KEY, writeWav } from './common.js';

const LINE = Number(process.env.SLUICE_BENCH_LINE_BPS ?? 300_000);
const READ_FROM_MS = 10_000;
const READ_UNTIL_MS = 25_000;

export async function benchLineSpeed(work, log) {
  const dir = path.join(work, 'line-speed');
  await mkdir(dir, { recursive: true });
  // 40 s of the line (8 kHz mono WAV: 16 kB a second of audio): still uploading when the readings end.
  const file = path.join(dir, 'slow-line.wav');
  writeWav(file, (LINE * 40) / 16_000, 43);
  const sb = await startSandbox({ apiKey: KEY, speedFactor: 0.01 });
  sb.setFaults({ uploadThrottle: { bytesPerSecond: LINE, buffered: false } });
  const rt = await Runtime.open({
    stateDir: path.join(dir, '.state'),
    connection: { baseUrl: sb.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    concurrency: 1,
  });
  const header = [];
  const rows = [];
  try {
    await rt.start({});
    const [added] = await rt.queue.addPaths([file]);
    const id = added && 'jobId' in added ? added.jobId : '';
    if (!id) throw new Error(`the WAV was not queued: ${JSON.stringify(added)}`);
    // Made once the file is queued: its batch is the queue's active jobs then (no events are fed here).
    const model = new QueueModel(rt);
    let started;
    for (;;) {
      started = rt.queue.progressOf(id)?.startedAt;
      if (started) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    log(`line speed: ${fmt(LINE / 1e3, 0)} KB/s line, reading from ${READ_FROM_MS / 1000} s`);
    while (Date.now() - started < READ_UNTIL_MS) {
      await new Promise((r) => setTimeout(r, 500));
      if (Date.now() - started < READ_FROM_MS) continue;
      const job = rt.queue.job(id);
      if (job?.state !== 'uploading') break;
      rows.push(model.view(job).bytesPerSecond);
      header.push(model.stats().batch.throughput);
    }
  } finally {
    await rt.close();
    await sb.close();
  }
  // A reading of 0 is "not measured yet" ("—" on screen), not a wrong number: counted apart.
  const measured = [...header, ...rows].filter((x) => x > 0);
  const worst = measured.reduce((w, x) => (Math.abs(x / LINE - 1) > Math.abs(w / LINE - 1) ? x : w), measured[0] ?? 0);
  const shown = worst;
  const off = Math.abs(shown / LINE - 1);
  const share = measured.length / Math.max(1, header.length + rows.length);
  return [
    {
      name: 'Upload speed shown on a throttled line (10–25 s)',
      value: `${fmt(shown / 1e3, 0)} KB/s (worst reading)`,
      baseline: `line: ${fmt(LINE / 1e3, 0)} KB/s`,
      ratio: fmt(shown / LINE),
      target: 'within 15%',
      met: share >= 0.8 && off <= 0.15,
      note: `${Math.round(share * 100)}% of readings measured; ${header.length} readings each of the header and the row, every 0.5 s; header ${header.map((x) => fmt(x / 1e3, 0)).join('/')} KB/s; row ${rows.map((x) => fmt(x / 1e3, 0)).join('/')} KB/s`,
    },
  ];
}
