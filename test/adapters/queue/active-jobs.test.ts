import { describe, expect, it } from 'vitest';
import { ActiveJobs } from '../../../main/adapters/queue/active-jobs.js';
import type { JobRecord } from '../../../main/engine/job.js';
import { compareJobs, holdsStream, takesUploadSlot } from '../../../main/engine/scheduler.js';
import { base } from '../../engine/fixtures.js';

const STATES = ['queued', 'uploading', 'processing', 'exporting', 'paused'] as const;

describe('ActiveJobs counts the slots its jobs hold as they change', () => {
  it('agrees with a full count and a full sort after any run of adds, moves, changes and removals', () => {
    const active = new ActiveJobs();
    let seed = 11;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 0; step < 2000; step++) {
      const id = `j${rand(30)}`;
      if (rand(5) === 0) active.delete(id);
      else {
        // Few distinct keys, so ties (broken by the id) are common.
        const state = STATES[rand(STATES.length)]!;
        active.set({ ...base(), id, state, priority: rand(2), seq: rand(8) } as JobRecord);
      }
      const all = [...active.values()];
      expect(active.used).toEqual({
        uploading: all.filter(takesUploadSlot).length,
        inFlight: all.filter(holdsStream).length,
      });
      const queued = all.filter((j) => j.state === 'queued').sort(compareJobs);
      expect(active.queuedInOrder().map((j) => j.id)).toEqual(queued.map((j) => j.id));
    }
  });

  it('hands out a copy of its counts, not the counts it keeps', () => {
    const active = new ActiveJobs();
    active.set({ ...base(), id: 'a', state: 'uploading' } as JobRecord);
    const used = active.used;
    active.delete('a');
    expect(used).toEqual({ uploading: 1, inFlight: 1 });
    expect(active.used).toEqual({ uploading: 0, inFlight: 0 });
  });

  it('loads the jobs read back at start in queue order, whatever their order in the journal', () => {
    const active = new ActiveJobs();
    let seed = 5;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const jobs = Array.from(
      { length: 300 },
      (_, i) =>
        ({
          ...base(),
          id: `j${i}`,
          state: STATES[rand(STATES.length)]!,
          priority: rand(2),
          seq: rand(50),
        }) as JobRecord,
    );
    active.load(jobs);
    const queued = jobs.filter((j) => j.state === 'queued').sort(compareJobs);
    expect(active.queuedInOrder().map((j) => j.id)).toEqual(queued.map((j) => j.id));
    expect(active.used).toEqual({
      uploading: jobs.filter(takesUploadSlot).length,
      inFlight: jobs.filter(holdsStream).length,
    });
    // What is set afterwards keeps its place among them.
    active.set({ ...jobs[0]!, state: 'queued', priority: 0, seq: -1 });
    expect(active.queuedInOrder()[0]!.id).toBe('j0');
  });
});
