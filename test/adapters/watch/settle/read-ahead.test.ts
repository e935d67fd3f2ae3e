// A first walk's files read ahead of their looks by worker threads, once the first batch shows
// they are not in the page cache (read-ahead.ts). Whether files are cached is the machine's to
// say; here the threshold is set to decide it either way (below any time, above any time), and what is checked is what follows.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadAhead } from '../../../../main/adapters/watch/settle/read-ahead.js';
import { tempDir, waitFor } from '../watcher-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('sluice-read-ahead-'));
});
afterEach(async () => {
  await cleanup();
});

async function batches(count: number, per: number): Promise<string[][]> {
  const out: string[][] = [];
  for (let b = 0; b < count; b++) {
    const sub = path.join(dir, `roll ${b}`);
    await mkdir(sub);
    const names: string[] = [];
    for (let i = 0; i < per; i++) {
      const p = path.join(sub, `take ${i}.wav`);
      await writeFile(p, Buffer.alloc(900, i));
      names.push(p);
    }
    out.push(names);
  }
  return out;
}

describe('reading a first walk’s files ahead', () => {
  it('stops after the first batch when its files were cached: one worker, the rest not read', async () => {
    const found = await batches(5, 40);
    const verdicts: boolean[] = [];
    const ahead = new ReadAhead({ coldMsPerFile: Number.POSITIVE_INFINITY, onVerdict: (c) => verdicts.push(c) });
    for (const b of found) ahead.add(b);
    ahead.end();
    await ahead.stopped();
    expect(verdicts).toEqual([false]);
    expect(ahead.workerCount).toBe(1);
    expect(ahead.filesRead).toBe(40);
  });

  it('passes the names on to their looks only once the first batch is judged, every one, in order', async () => {
    // A look that read the first files before the worker did made them cached for it: a folder
    // fresh from a restart was judged cached.
    const found = await batches(6, 20);
    const events: string[] = [];
    const passed: string[] = [];
    const ahead = new ReadAhead({
      coldMsPerFile: -1,
      // The verdict is waited for however slowly the worker starts on a loaded machine (the
      // wait's own end is the next tests').
      verdictWaitMs: 60_000,
      onVerdict: (c) => events.push(`verdict ${c}`),
      pass: (paths) => {
        events.push('pass');
        passed.push(...paths);
      },
    });
    for (const b of found) ahead.add(b);
    expect(events).toEqual([]);
    await waitFor(() => passed.length === 6 * 20);
    expect(events[0]).toBe('verdict true');
    expect(passed).toEqual(found.flat());
    // Later names go on as they come.
    const more = path.join(dir, 'late.wav');
    ahead.add([more]);
    expect(passed.at(-1)).toBe(more);
    ahead.end();
    await ahead.stopped();
  });

  it('passes the names on when the verdict is slower than the wait, and judges the batch all the same', async () => {
    // A worker cannot start and read twenty files within a millisecond: the wait ends first.
    const found = await batches(2, 20);
    const events: string[] = [];
    const ahead = new ReadAhead({
      coldMsPerFile: -1,
      verdictWaitMs: 1,
      onVerdict: (c) => events.push(`verdict ${c}`),
      pass: (paths) => events.push(`pass ${paths.length}`),
    });
    for (const b of found) ahead.add(b);
    await waitFor(() => events.includes('verdict true'));
    expect(events).toEqual(['pass 20', 'pass 20', 'verdict true']);
    ahead.end();
    await ahead.stopped();
  });

  it('a walk that ends before the verdict passes its names on at once; a closed one passes nothing more', async () => {
    const found = await batches(2, 5);
    const passed: string[] = [];
    const ahead = new ReadAhead({ pass: (paths) => passed.push(...paths) });
    for (const b of found) ahead.add(b);
    ahead.end();
    expect(passed).toEqual(found.flat());
    await ahead.stopped();
    const closed = new ReadAhead({ pass: (paths) => passed.push(...paths) });
    closed.add(found[0]!);
    await closed.close();
    closed.add(found[1]!);
    expect(passed).toHaveLength(10);
  });

  it('reads every batch across three workers when the first shows files not cached, then stops', async () => {
    const found = await batches(9, 30);
    const verdicts: boolean[] = [];
    const ahead = new ReadAhead({ coldMsPerFile: -1, onVerdict: (c) => verdicts.push(c) });
    for (const b of found) ahead.add(b);
    ahead.end();
    await ahead.stopped();
    expect(verdicts).toEqual([true]);
    expect(ahead.workerCount).toBe(3);
    expect(ahead.filesRead).toBe(9 * 30);
    // Ended: nothing more is taken, and no worker is started again.
    ahead.add(found[0]!);
    expect(ahead.workerCount).toBe(3);
  });

  it('skips what it cannot read (gone, a folder, a FIFO with no writer) without waiting on it', async () => {
    const [files] = await batches(1, 3);
    const fifo = path.join(dir, 'pipe.wav');
    execFileSync('mkfifo', [fifo]);
    const odd = [path.join(dir, 'gone.wav'), path.join(dir, 'roll 0'), fifo, ...files!];
    const ahead = new ReadAhead({ coldMsPerFile: -1 });
    ahead.add(odd);
    ahead.add(files!);
    ahead.end();
    await ahead.stopped();
    expect(ahead.filesRead).toBe(odd.length + files!.length);
  });

  it('stops at once when closed, with batches still unread', async () => {
    const found = await batches(4, 20);
    const ahead = new ReadAhead({ coldMsPerFile: -1 });
    for (const b of found) ahead.add(b);
    await waitFor(() => ahead.workerCount === 3, 5000, 'the workers to start');
    await ahead.close();
    await ahead.stopped();
    const after = ahead.filesRead;
    ahead.add(found[0]!);
    await new Promise((r) => setTimeout(r, 50));
    expect(ahead.filesRead).toBe(after);
  });
});
