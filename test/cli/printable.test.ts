// A file name cannot forge or reorder what the CLI prints: control and bidirectional characters
// come out as visible escapes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { JobStore } from '../../main/adapters/store/journal/job-store.js';
import { registerInfo } from '../../main/cli/commands/info.js';
import { printable } from '../../main/cli/printable.js';
import { describeJob, plainProgress, summaryTable } from '../../main/cli/progress.js';
import { createJob, type JobRecord } from '../../main/engine/job.js';
import type { EngineEvent } from '../../main/engine/events.js';
import type { Runtime } from '../../main/runtime/runtime.js';

// A name that, printed raw, adds a second "completed" line and shows `exe.wav` as `vaw.exe`.
// Anything printable() must escape (see main/cli/printable.ts).
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const RAW = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const FORGED = '/m/a.wav\ncompleted /m/b.wav take\u202Eexe.wav\u0007\u009b2J\u2066x\u2069';

function job(over: Partial<JobRecord>): JobRecord {
  const base = createJob(
    {
      id: 'j1',
      source: { path: FORGED, size: 1, mtimeMs: 1 },
      origin: { kind: 'manual' },
      seq: 1,
      templateId: 't',
      params: {},
    },
    0,
  );
  return { ...base, ...over };
}

describe('printable', () => {
  it('escapes C0, DEL, C1, bidirectional and invisible characters; keeps other text as is', () => {
    expect(printable('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
    expect(printable('\u0000\u001b[31m\u007f\u0085\u009b')).toBe('\\u0000\\u001B[31m\\u007F\\u0085\\u009B');
    for (const c of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']) {
      expect(printable(`x${c}y`)).toBe(`x\\u${c.charCodeAt(0).toString(16).toUpperCase()}y`);
    }
    expect(printable('\u200E\u200F\u061C\u2028\u2029\u200B\uFEFF')).toBe(
      '\\u200E\\u200F\\u061C\\u2028\\u2029\\u200B\\uFEFF',
    );
    expect(printable('Café – 日本語 🎧.wav')).toBe('Café – 日本語 🎧.wav');
  });

  it('plain progress prints one line per change, whatever the file is called', () => {
    let listener: ((e: EngineEvent) => void) | undefined;
    const runtime = {
      on: (l: (e: EngineEvent) => void) => {
        listener = l;
        return () => undefined;
      },
    } as unknown as Runtime;
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    });
    const view = plainProgress(runtime, new Set(['j1']), out as unknown as typeof process.stdout);
    listener?.({ type: 'job:updated', job: job({ state: 'failed', error: { message: `bad ${FORGED}` } as never }) });
    view.stop();
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^failed \/m\/a\.wav\\ncompleted /);
    expect(lines[0]).toContain('take\\u202Eexe.wav\\u0007\\u009B2J\\u2066x\\u2069');
    expect(lines[0]).not.toMatch(RAW);
  });

  it('the summary table and job descriptions carry no raw control characters', () => {
    const done = job({
      state: 'completed',
      source: { path: '/m/x\u202Ey.wav', size: 1, mtimeMs: 1 },
      results: [{ format: 'json', path: '/m/take\u202Eexe.json', writtenBySluice: true }],
    });
    expect(describeJob(done)).toBe('take\\u202Eexe.json');
    const table = summaryTable([done]);
    expect(table).toContain('x\\u202Ey.wav');
    // Piped, a table is a header and one line per job, its cells separated by tabs.
    expect(table.split('\n')).toHaveLength(2);
    for (const cell of table.split(/[\n\t]/)) expect(cell).not.toMatch(RAW);
  });

  it('status and history show journal paths escaped', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sluice-printable-'));
    try {
      const store = JobStore.open<JobRecord>(dir, { fsync: 'never' });
      store.put(job({ state: 'uploading' }));
      store.close();
      const printed: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void printed.push(a.map(String).join(' ')));
      try {
        for (const command of ['status', 'history']) {
          const program = new Command('sluice').exitOverride();
          registerInfo(program);
          await program.parseAsync([command, '--state-dir', dir], { from: 'user' });
        }
      } finally {
        vi.restoreAllMocks();
      }
      const text = printed.join('\n');
      expect(text).toContain('/m/a.wav\\ncompleted /m/b.wav take\\u202Eexe.wav');
      expect(text).toContain('\\u202E');
      for (const cell of text.split(/[\n\t]/)) expect(cell).not.toMatch(RAW);
      expect(text).not.toMatch(/^completed /m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
