// Which user action applies in which state: one table, asked by the reducer, views and handlers.
import { describe, expect, it } from 'vitest';
import { canCancelExternal, canReexportExternal, refusal, type JobAction } from '../../main/engine/eligibility.js';
import { jobs, type Fixture } from './fixtures.js';

const allowed: Record<JobAction, Fixture[]> = {
  retry: ['failed', 'canceled', 'expired'],
  cancel: [
    'queued',
    'queuedWithId',
    'queuedVerify',
    'uploading',
    'verifying',
    'processing',
    'awaitingComponents',
    'exporting',
    'writing',
  ],
  move: ['queued', 'queuedWithId', 'queuedVerify'],
  rewrite: ['completed', 'completedWarn'],
  reexport: ['completed', 'completedWarn'],
  dismiss: ['completed', 'completedWarn', 'failed', 'canceled', 'expired'],
  rerun: ['completed', 'completedWarn', 'failed', 'canceled', 'expired'],
  review: ['completed', 'completedWarn'],
};

const rows = (Object.keys(allowed) as JobAction[]).flatMap((action) =>
  (Object.keys(jobs) as Fixture[]).map((fixture) => ({ action, fixture, ok: allowed[action].includes(fixture) })),
);

describe('eligibility of user actions', () => {
  it.each(rows)('$action on $fixture → $ok', ({ action, fixture, ok }) => {
    const why = refusal(jobs[fixture](), action);
    if (ok) expect(why).toBeUndefined();
    else expect(why).toMatch(/\w/);
  });

  it('no re-export once the service let the stream expire', () => {
    const job = { ...jobs.completed(), stream: { state: 'EXPIRED' as const, stateDescription: null } };
    expect(refusal(job, 'reexport')).toMatch(/stream at the service/);
  });

  it('a stream started elsewhere: stopped while it runs, exported once it completed', () => {
    const states = ['READY', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
    expect(states.filter(canCancelExternal)).toEqual(['READY']);
    expect(states.filter(canReexportExternal)).toEqual(['COMPLETED']);
  });
});
