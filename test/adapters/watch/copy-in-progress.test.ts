// A file still being copied into a watch folder is visible from its first event as "Waiting for the
// copy to finish" with its growing size, and is uploaded once, whole. A child process appends at
// 1 MB/s through a real watch folder (file-system events); the sandbox counts what it received.
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CopyingView } from '../../../preload/contract.js';
import { createClient } from '../../../main/api/client.js';
import { memoryVault } from '../../../main/adapters/store/secrets/secret-vault.js';
import { createBridge, type Bridge } from '../../../main/ipc/handlers.js';
import { Runtime } from '../../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../../helpers/media.js';
import { until } from '../../ipc/helpers.js';

let dir: string;
let folder: string;
let sandbox: Sandbox;
let rt: Runtime;
let bridge: Bridge;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-copying-');
  folder = path.join(dir, 'ingest');
  await mkdir(folder);
  sandbox = await startSandbox({ apiKey: 'k', speedFactor: 0.01 });
});

/** The runtime, watching `folder` with this settle time (long: files stay "copying"). */
async function open(settleMs = 1500): Promise<void> {
  const runtime = (): Promise<Runtime> =>
    Runtime.open({
      stateDir: path.join(dir, '.state'),
      connection: { baseUrl: sandbox.url },
      credentials: { kind: 'apiKey', apiKey: 'k' },
      ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
    });
  // The settle time is read when the runtime opens: saved first, then opened again.
  const first = await runtime();
  await first.updateSettings((s) => ({
    ...s,
    queue: { ...s.queue, settleMs, rescanIntervalMs: 3_600_000 },
    watchFolders: [
      {
        id: 'ingest',
        path: folder,
        enabled: true,
        templateId: s.defaults.templateId,
        params: {},
        include: [],
        exclude: [],
        recursive: true,
        output: s.defaults.output,
        postAction: { kind: 'none' },
      },
    ],
  }));
  await first.close();
  rt = await runtime();
  bridge = createBridge(
    rt,
    {
      kind: 'web',
      version: '0',
      secrets: memoryVault(),
      openPath: async () => undefined,
      revealPath: async () => undefined,
    },
    { flushIntervalMs: 20, statsIntervalMs: 50 },
  );
  await rt.start({ watch: true });
}

afterEach(async () => {
  bridge?.close();
  await rt?.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a file still being copied', () => {
  it('shows as waiting with its growing size from the first event, then is uploaded once, whole', async () => {
    await open();
    // About 4.4 MB of WAV, written by another process 256 KB every 250 ms (1 MB/s).
    const src = await makeToneWav(dir, 'source.wav', 50);
    const total = (await stat(src)).size;
    const target = path.join(folder, 'ZOOM0001_LR.WAV');
    const seen: CopyingView[][] = [];
    bridge.events.subscribe(
      (e) => {
        if (e.name === 'queue:copying-changed') seen.push(e.payload.files);
      },
      { ready: true },
    );
    const writer = spawn(process.execPath, [
      '-e',
      `const fs=require('fs');const data=fs.readFileSync(${JSON.stringify(src)});const fd=fs.openSync(${JSON.stringify(target)},'w');
       let off=0;const step=()=>{const n=Math.min(262144,data.length-off);fs.writeSync(fd,data,off,n);off+=n;
       if(off<data.length)setTimeout(step,250);else fs.closeSync(fd);};step();`,
    ]);
    const finished = new Promise<void>((resolve) => writer.once('exit', () => resolve()));
    let copyEnded = false;
    void finished.then(() => (copyEnded = true));

    // Visible before the copy ends, with its size, as the engine's state (the snapshot), not only events.
    const early = await until(() => {
      const c = rt.folders.copies().find((x) => x.path === target);
      return c && !copyEnded && c;
    }, 10_000);
    expect(early.size).toBeLessThan(total);
    const snap = await bridge.handlers['queue:snapshot']({});
    expect(snap.ok && snap.value.copying?.find((c) => c.fileName === 'ZOOM0001_LR.WAV')).toMatchObject({
      status: 'Waiting for the copy to finish',
    });
    await until(() => copyEnded, 20_000);
    const sizes = seen.flatMap((list) => list.filter((c) => c.path === target).map((c) => c.bytes));
    expect(sizes.length).toBeGreaterThan(2);
    expect(new Set(sizes).size).toBeGreaterThan(2);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(rt.queue.jobs()).toEqual([]); // nothing taken while it was still growing

    const job = await until(() => {
      const j = rt.queue.jobs().find((x) => x.source.path === target);
      return j?.state === 'completed' && j;
    }, 30_000);
    expect(job.totalBytes).toBe(total);
    expect(rt.queue.jobs()).toHaveLength(1);
    expect(sandbox.stats().upload).toBe(1);
    // What the service says it received for the stream: every byte of the finished file.
    const client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'apiKey', apiKey: 'k' } });
    const usage = await client.streamUsage(job.streamId!).finally(() => client.close());
    expect(usage.processors.reduce((n, p) => n + p.ingressSize, 0)).toBe(total);
    expect(rt.folders.copies()).toEqual([]);
    expect((await readFile(target)).length).toBe(total);
  }, 60_000);

  it('costs the event stream a bounded number of bytes per file on a card dump, and says how many there are', async () => {
    await open(60_000);
    let bytes = 0;
    let last: { total: number; files: CopyingView[] } | undefined;
    bridge.events.subscribe(
      (e) => {
        if (e.name !== 'queue:copying-changed') return;
        bytes += JSON.stringify(e.payload).length;
        last = e.payload;
      },
      { ready: true },
    );
    const n = 1000;
    const card = path.join(folder, 'DCIM');
    await mkdir(card);
    for (let i = 0; i < n; i += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, j) =>
          writeFile(path.join(card, `C${String(i + j).padStart(4, '0')}.MP4`), 'x'),
        ),
      );
    }
    await until(() => last?.total === n && last, 30_000);
    // Every file still settling: the list grew to 1,000, yet each event carried only the first few.
    expect(last!.files.length).toBeLessThan(n);
    expect(last!.files.length).toBeGreaterThan(0);
    const snap = await bridge.handlers['queue:snapshot']({});
    expect(snap.ok && snap.value.copyingTotal).toBe(n);
    expect(snap.ok && snap.value.copying!.length).toBe(last!.files.length);
    // The whole list on every change would be ~1,000 × 2 × 1,000 × 200 bytes; bounded, it is a few KB a file.
    expect(bytes / n).toBeLessThan(8_000);
  }, 60_000);
});
