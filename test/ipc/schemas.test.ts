// Every payload is parsed before a handler runs: random junk never reaches the runtime and always
// comes back as a typed INVALID_PARAMS Result.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../preload/contract.js';
import { createHandlers, dispatch } from '../../main/ipc/handlers.js';
import type { QueueModel } from '../../main/ipc/queue-model.js';
import type { PlatformPort } from '../../main/ipc/platform.js';
import { SCHEMAS } from '../../main/ipc/schemas.js';
import type { Runtime } from '../../main/runtime/runtime.js';

/**
 * The runtime's services as the handlers are handed them (each one looked up once, when the handlers
 * are made): every service is a stand-in that records and refuses any use of it.
 */
function recordingRuntime(touched: string[]): Runtime {
  return new Proxy({} as Runtime, {
    get: (_t, service) =>
      new Proxy(() => undefined, {
        get: (_s, prop) => {
          touched.push(`${String(service)}.${String(prop)}`);
          throw new Error(`the runtime was reached (${String(service)}.${String(prop)})`);
        },
        apply: () => {
          touched.push(String(service));
          throw new Error(`the runtime was reached (${String(service)}())`);
        },
      }),
  });
}

const secrets = new Proxy({} as PlatformPort['secrets'], {
  get: (_t, prop) => {
    throw new Error(`the secret store was reached (${String(prop)})`);
  },
});
const platform = new Proxy({ kind: 'web', version: 'x', secrets } as PlatformPort, {
  get: (t, prop) => {
    if (prop in t) return t[prop as keyof PlatformPort];
    throw new Error(`the platform was reached (${String(prop)})`);
  },
});

const touched: string[] = [];
const handlers = createHandlers(recordingRuntime(touched), platform, {
  model: {} as QueueModel,
});

const junk = fc.oneof(
  fc.anything(),
  fc.dictionary(fc.string(), fc.anything()),
  fc.record({ id: fc.anything(), paths: fc.anything(), patch: fc.anything() }, { requiredKeys: [] }),
);

describe('schemas', () => {
  it('has one schema per channel and one channel per schema', () => {
    expect(Object.keys(SCHEMAS).sort()).toEqual([...CHANNELS].sort());
  });

  it('turns random junk into INVALID_PARAMS without reaching the runtime', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CHANNELS), junk, async (channel, raw) => {
        const parsed = SCHEMAS[channel].safeParse(raw ?? {});
        fc.pre(!parsed.success);
        const before = touched.length;
        const r = await dispatch(handlers, channel, raw);
        expect(r.ok).toBe(false);
        if (!r.ok) {
          expect(r.error.code).toBe('INVALID_PARAMS');
          expect(typeof r.error.message).toBe('string');
          expect(r.error.retryable).toBe(false);
          expect(JSON.parse(JSON.stringify(r))).toEqual(r);
        }
        expect(touched.length).toBe(before);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses unknown channels and prototype keys', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.anything(), async (channel, raw) => {
        fc.pre(!(CHANNELS as readonly string[]).includes(channel));
        const r = await dispatch(handlers, channel, raw);
        expect(r.ok).toBe(false);
      }),
    );
    for (const c of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const r = await dispatch(handlers, c, {});
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    }
    expect(touched).toEqual([]);
  });

  it('rejects extra keys (strict) and accepts well-formed payloads', () => {
    expect(SCHEMAS['queue:retry'].safeParse({ id: 'a', extra: 1 }).success).toBe(false);
    expect(SCHEMAS['queue:retry'].safeParse({ id: 'a' }).success).toBe(true);
    expect(SCHEMAS['queue:move'].safeParse({ id: 'a', direction: 'sideways' }).success).toBe(false);
    expect(SCHEMAS['settings:update'].safeParse({ patch: { queue: { uploadConcurrency: 3 } } }).success).toBe(true);
    expect(SCHEMAS['settings:update'].safeParse({ patch: { apiKey: 'x' } }).success).toBe(false);
    expect(SCHEMAS['history:list'].safeParse({ pageSize: 100_000 }).success).toBe(false);
    expect(SCHEMAS['history:reexport'].safeParse({ streamId: 's' }).success).toBe(true);
    expect(SCHEMAS['queue:add'].safeParse({ paths: [] }).success).toBe(false);
  });

  it('a re-export names known formats, at least one, and only for a job of its own', async () => {
    const ok = (p: unknown): boolean => SCHEMAS['history:reexport'].safeParse(p).success;
    expect(ok({ jobId: 'j', formats: ['srt', 'md'] })).toBe(true);
    expect(ok({ jobId: 'j', formats: ['json'] })).toBe(true);
    expect(ok({ jobId: 'j', formats: [] })).toBe(false);
    expect(ok({ jobId: 'j', formats: ['pdf'] })).toBe(false);
    expect(ok({ jobId: 'j', formats: 'srt' })).toBe(false);
    expect(ok({ streamId: 's', formats: ['srt'] })).toBe(false);
    const r = await dispatch(handlers, 'history:reexport', { jobId: 'j', formats: ['srt', 'exe'] });
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    expect(touched).toEqual([]);
  });
});
