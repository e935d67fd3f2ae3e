import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import type { FaultConfig } from '../../main/sandbox/faults.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { AUTH, call, components, getStream, upload, uploadPath, waitFinished } from './client.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';

let sb: Sandbox;
let wav: string;
const LIST = `${API_PREFIX.stream}/streams?size=1`;

beforeAll(async () => {
  sb = await startSandbox({ fixedProcessingMs: 40 });
  wav = await makeToneWav(await makeMediaDir(), 't.wav', 1);
});
afterAll(() => sb.close());
afterEach(() => sb.setFaults({}));

/** Sends `total` bytes slowly in chunks; resolves with what happened to the request. */
function slowUpload(
  id: string,
  total: number,
  opts: { abortAfter?: number } = {},
): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const url = new URL(
      sb.url + uploadPath({ streamConfigurationTemplateId: TEMPLATE_IDS.transcription, id, persist: 'true' }),
    );
    const req = httpRequest(url, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/octet-stream', 'content-length': String(total) },
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode });
    });
    req.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
    let sent = 0;
    const chunk = Buffer.alloc(16 * 1024, 1);
    const pump = (): void => {
      if (req.destroyed) return;
      if (opts.abortAfter !== undefined && sent >= opts.abortAfter) {
        req.destroy();
        resolve({ error: 'client-aborted' });
        return;
      }
      if (sent >= total) return void req.end();
      const part = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += part.length;
      req.write(part, () => setTimeout(pump, 2));
    };
    pump();
  });
}

describe('request faults', () => {
  it('rateLimit next N → 429 with Retry-After and a gateway body (not the usage limit), then normal', async () => {
    sb.setFaults({ rateLimit: { next: 2, retryAfterS: 3 } });
    const a = await call<{ message: string; internalErrorName?: string }>(sb.url, LIST);
    expect([a.status, a.headers.get('retry-after'), a.body.internalErrorName]).toEqual([429, '3', undefined]);
    expect(a.body.message).toMatch(/too many requests/i);
    expect((await call(sb.url, LIST)).status).toBe(429);
    expect((await call(sb.url, LIST)).status).toBe(200);
  });

  it('rateLimit everyKth limited to an operation', async () => {
    sb.setFaults({ rateLimit: { everyKth: 2, operations: ['findById'] } });
    const id = (await upload(sb.url, wav)).body.streamId;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(sb.url, `${API_PREFIX.stream}/streams/${id}`)).status);
    expect(statuses).toEqual([200, 429, 200, 429]);
    expect((await call(sb.url, LIST)).status).toBe(200);
  });

  it('serverErrors: burst of the chosen status', async () => {
    sb.setFaults({ serverErrors: { next: 2, status: 502 } });
    const a = await call<{ statusCode: number; nestedErrors: unknown[] }>(sb.url, LIST);
    expect([a.status, a.body.statusCode, a.body.nestedErrors]).toEqual([502, 502, []]);
    expect((await call(sb.url, LIST)).status).toBe(502);
    expect((await call(sb.url, LIST)).status).toBe(200);
  });

  it('503 carries Retry-After', async () => {
    sb.setFaults({ serverErrors: { next: 1, retryAfterS: 4 } });
    const a = await call(sb.url, LIST);
    expect([a.status, a.headers.get('retry-after')]).toEqual([503, '4']);
  });

  it('latency delays matching operations only', async () => {
    sb.setFaults({ latency: { ms: 800, operations: ['findAll'] } });
    let t = Date.now();
    await call(sb.url, LIST);
    expect(Date.now() - t).toBeGreaterThanOrEqual(790);
    t = Date.now();
    await call(sb.url, `${API_PREFIX.usage}/usage/report`);
    // Well under the injected delay even on a loaded machine.
    expect(Date.now() - t).toBeLessThan(600);
  });

  it('reservationFailure → 503 PROCESSOR_FAILED_RESERVATION_ERROR on upload, no stream created', async () => {
    sb.setFaults({ reservationFailure: { next: 1, retryAfterS: 2 } });
    const id = randomUUID();
    const r = await upload(sb.url, wav, { id });
    expect([
      r.status,
      r.headers.get('retry-after'),
      (r.body as unknown as { internalErrorName: string }).internalErrorName,
    ]).toEqual([503, '2', 'PROCESSOR_FAILED_RESERVATION_ERROR']);
    expect((await call(sb.url, `${API_PREFIX.stream}/streams/${id}`)).status).toBe(404);
    expect((await upload(sb.url, wav, { id })).status).toBe(200);
  });
});

describe('upload throttle', () => {
  it('a throttled body reaches the stream at the set rate; the stream stays READY meanwhile', async () => {
    const size = (await readFile(wav)).length; // 1 s of 44.1 kHz 16-bit mono: ~88 kB
    sb.setFaults({ uploadThrottle: { bytesPerSecond: Math.ceil(size / 1.5) } });
    const id = randomUUID();
    const started = Date.now();
    const answer = upload(sb.url, wav, { id });
    // The stream exists once the request has arrived; its body is still coming in then.
    await expect
      .poll(async () => (await call(sb.url, `${API_PREFIX.stream}/streams/${id}`)).status, { interval: 25 })
      .toBe(200);
    expect((await getStream(sb.url, id)).state).toBe('READY');
    expect((await answer).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect((await waitFinished(sb.url, id)).state).toBe('COMPLETED');
  });

  it('a client gone after its last byte: behind the buffering throttle the stream still completes; on the connection it fails', async () => {
    const bytes = await readFile(wav);
    const goneAfterLastByte = (id: string): Promise<void> =>
      new Promise((resolve) => {
        const url = new URL(
          sb.url + uploadPath({ streamConfigurationTemplateId: TEMPLATE_IDS.transcription, id, persist: 'true' }),
        );
        const req = httpRequest(url, {
          method: 'POST',
          headers: { ...AUTH, 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
        });
        req.on('error', () => resolve());
        req.on('close', () => resolve());
        req.end(bytes);
        setTimeout(() => req.destroy(), 300);
      });
    const rate = Math.ceil(bytes.length / 1.5);
    sb.setFaults({ uploadThrottle: { bytesPerSecond: rate } });
    const proxied = randomUUID();
    await goneAfterLastByte(proxied);
    sb.setFaults({ uploadThrottle: { bytesPerSecond: rate, buffered: false } });
    const direct = randomUUID();
    await goneAfterLastByte(direct);
    expect((await waitFinished(sb.url, proxied)).state).toBe('COMPLETED');
    expect((await waitFinished(sb.url, direct)).state).toBe('FAILED');
  });
});

describe('stream faults', () => {
  it('processingFailure next 1 with a chosen processor and error name', async () => {
    const faults: FaultConfig = {
      processingFailure: {
        next: 1,
        processor: 'diarization',
        internalErrorName: 'PROCESSOR_SPEAKER_DIARIZATION_ERROR',
      },
    };
    sb.setFaults(faults);
    const a = await upload(sb.url, wav, { template: TEMPLATE_IDS.diarization });
    expect((await waitFinished(sb.url, a.body.streamId)).state).toBe('FAILED');
    const c = await components(sb.url, a.body.streamId);
    expect(c.processors.map((p) => p.state)).toEqual(['COMPLETED', 'ERROR', 'ERROR']);
    expect(c.processors[1]?.stateDescription).toMatch(/^\[InternalErrorName\.PROCESSOR_SPEAKER_DIARIZATION_ERROR\] /);
    const b = await upload(sb.url, wav, { template: TEMPLATE_IDS.diarization });
    expect((await waitFinished(sb.url, b.body.streamId)).state).toBe('COMPLETED');
  });

  it('processingFailure everyKth 2 fails every second stream', async () => {
    sb.setFaults({ processingFailure: { everyKth: 2 } });
    const states: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await upload(sb.url, wav);
      states.push((await waitFinished(sb.url, r.body.streamId)).state);
    }
    expect(states).toEqual(['COMPLETED', 'FAILED', 'COMPLETED', 'FAILED']);
  });

  it('uploadReset cuts the connection mid-body; the stream is FAILED "Upload interrupted" (C12)', async () => {
    sb.setFaults({ uploadReset: { next: 1, afterBytes: 100_000 } });
    const id = randomUUID();
    const r = await slowUpload(id, 400_000);
    expect(r.status).toBeUndefined();
    expect(r.error).toMatch(/ECONNRESET|EPIPE|socket hang up/);
    const s = await getStream(sb.url, id);
    expect([s.state, s.stateDescription]).toEqual(['FAILED', 'Upload interrupted']);
    expect((await components(sb.url, id)).gateway.state).toBe('CLOSED');
    // the next upload goes through
    expect((await slowUpload(randomUUID(), 50_000)).status).toBe(200);
  });

  it('a client abort mid-body also leaves the stream FAILED "Upload interrupted"', async () => {
    const id = randomUUID();
    const r = await slowUpload(id, 1_000_000, { abortAfter: 64 * 1024 });
    expect(r.error).toBe('client-aborted');
    let s = await getStream(sb.url, id);
    for (let i = 0; i < 50 && s.state === 'READY'; i++) {
      await new Promise((res) => setTimeout(res, 10));
      s = await getStream(sb.url, id);
    }
    expect([s.state, s.stateDescription]).toEqual(['FAILED', 'Upload interrupted']);
  });
});

describe('concurrency ceiling (§15.1, C31)', () => {
  it('the (N+1)th concurrently READY stream is refused with 429, then accepted once one finishes', async () => {
    const s = await startSandbox({ maxConcurrentStreams: 2, fixedProcessingMs: 1500 });
    try {
      expect((await upload(s.url, wav)).status).toBe(200);
      const second = await upload(s.url, wav);
      expect(second.status).toBe(200);
      const third = await upload(s.url, wav);
      expect(third.status).toBe(429);
      expect(third.body as unknown).toMatchObject({
        internalErrorName: 'STREAM_USAGE_LIMIT_REACHED',
        message: 'Maximum number of concurrent streams reached',
      });
      await waitFinished(s.url, second.body.streamId);
      expect((await upload(s.url, wav)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('can be set through faults, and null there lifts it', async () => {
    sb.setFaults({ maxConcurrentStreams: 0 });
    expect((await upload(sb.url, wav)).status).toBe(429);
    sb.setFaults({ maxConcurrentStreams: null });
    expect((await upload(sb.url, wav)).status).toBe(200);
  });
});

describe('admin endpoints and stats', () => {
  it('PUT/GET faults over HTTP, with validation and the counts left', async () => {
    const put = await call(sb.url, '/sandbox/admin/faults', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ serverErrors: { next: 2, operations: ['usageReport'] } }),
    });
    expect(put.status).toBe(200);
    expect((await call(sb.url, `${API_PREFIX.usage}/usage/report`)).status).toBe(503);
    // admin calls are never faulted
    const got = await call<FaultConfig>(sb.url, '/sandbox/admin/faults');
    expect(got.body).toEqual({ serverErrors: { next: 1, operations: ['usageReport'] } });
    expect(sb.getFaults()).toEqual(got.body);
    const bad = await call<{ internalErrorName: string }>(sb.url, '/sandbox/admin/faults', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rateLimit: { everyKth: 0 } }),
    });
    expect([bad.status, bad.body.internalErrorName]).toEqual([400, 'GENERAL_VALIDATION_ERROR']);
  });

  it('admin endpoints need the API key', async () => {
    const r = await fetch(`${sb.url}/sandbox/admin/faults`);
    expect(r.status).toBe(401);
  });

  it('stats count requests by operation; resetStats and DELETE clear them', async () => {
    sb.resetStats();
    const id = (await upload(sb.url, wav)).body.streamId;
    await getStream(sb.url, id);
    await getStream(sb.url, id);
    await call(sb.url, LIST);
    expect(sb.stats()).toEqual({ upload: 1, findById: 2, findAll: 1 });
    const viaHttp = await call<Record<string, number>>(sb.url, '/sandbox/admin/stats');
    expect(viaHttp.body).toMatchObject({ upload: 1, findById: 2, findAll: 1, adminStats: 1 });
    expect((await call(sb.url, '/sandbox/admin/stats', { method: 'DELETE' })).status).toBe(204);
    expect(sb.stats()).toEqual({});
  });

  it('faults come from SLUICE_SANDBOX_FAULTS when no option is given', async () => {
    process.env.SLUICE_SANDBOX_FAULTS = JSON.stringify({ rateLimit: { next: 1 } });
    const s = await startSandbox();
    delete process.env.SLUICE_SANDBOX_FAULTS;
    try {
      expect((await call(s.url, LIST)).status).toBe(429);
      expect((await call(s.url, LIST)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
