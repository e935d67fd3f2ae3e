// A job waiting because the service answered 429 says so on the Queue ("rate-limited by the
// service, retrying in N s"), unlike a job waiting after a failure or the account's usage limit.
import { describe, expect, it } from 'vitest';
import { createJob, type JobRecord } from '../../main/engine/job.js';
import { DEFAULT_OUTPUT } from '../../main/engine/settings.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { toJobView } from '../../main/ipc/views.js';

const T0 = 1_800_000_000_000;

function queued(error: JobRecord['error']): JobRecord {
  const job = createJob(
    {
      id: 'j1',
      source: { path: '/media/take.wav', size: 1000, mtimeMs: T0 },
      origin: { kind: 'manual' },
      seq: 1,
      templateId: TEMPLATE_IDS.transcription,
      params: {},
      output: DEFAULT_OUTPUT,
    },
    T0,
  );
  return { ...job, state: 'queued', failures: 3, nextAttemptAt: T0 + 12_000, ...(error ? { error } : {}) };
}

describe('the Queue row of a job waiting for its retry', () => {
  it.each([
    {
      what: 'a 429 from the service',
      error: { class: 'transient', message: 'Too many requests', statusCode: 429 },
      want: true,
    },
    {
      what: "the account's usage limit",
      error: {
        class: 'transient',
        message: 'Usage limit',
        statusCode: 429,
        internalErrorName: 'STREAM_USAGE_LIMIT_REACHED',
      },
      want: undefined,
    },
    { what: 'a 503', error: { class: 'transient', message: 'Unavailable', statusCode: 503 }, want: undefined },
  ] as const)('$what → rateLimited $want', ({ error, want }) => {
    const view = toJobView(queued({ ...error }), undefined, T0);
    expect(view.nextAttemptAt).toBe(T0 + 12_000);
    expect(view.rateLimited).toBe(want);
    // The detail's words: a rate limit is the service asking to slow down, not a busy or broken service.
    expect(view.plainError?.summary.startsWith('Rate-limited by the service')).toBe(want === true);
  });
});
