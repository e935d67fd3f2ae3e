import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../main/service/policy.js';
import type { Page, StreamDto } from '../../main/service/types.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { call, components, upload, waitFinished } from './client.js';

let sb: Sandbox;
let clock = Date.UTC(2025, 0, 1);
const ids: string[] = [];
const LIST = `${API_PREFIX.stream}/streams`;
const page = (q: string) => call<Page<StreamDto>>(sb.url, `${LIST}?${q}`);

beforeAll(async () => {
  // A fixed clock: every upload gets a distinct createdTimestamp and nothing finishes by itself.
  sb = await startSandbox({ now: () => clock, fixedProcessingMs: 1000 });
  for (let i = 0; i < 12; i++) {
    clock += 1000;
    const r = await upload(sb.url, Buffer.from(`not media ${i}`), { params: { name: `s${i}` } });
    ids.push(r.body.streamId);
  }
});
afterAll(() => sb.close());

describe('list (§5.3, C13)', () => {
  it('defaults to page 0 of 10, newest first, Spring page shape', async () => {
    const r = await page('');
    expect(r.status).toBe(200);
    expect(r.body.content.map((s) => s.name)).toEqual(['s11', 's10', 's9', 's8', 's7', 's6', 's5', 's4', 's3', 's2']);
    expect(r.body).toMatchObject({
      totalElements: 12,
      totalPages: 2,
      number: 0,
      size: 10,
      numberOfElements: 10,
      first: true,
      last: false,
      empty: false,
      sort: { sorted: false, unsorted: true, empty: true },
      pageable: { pageNumber: 0, pageSize: 10, offset: 0, paged: true, unpaged: false },
    });
  });

  it('last page, page past the end, size capped at 100', async () => {
    const last = await page('page=1&size=10');
    expect(last.body.content.map((s) => s.name)).toEqual(['s1', 's0']);
    expect([last.body.last, last.body.first, last.body.numberOfElements]).toEqual([true, false, 2]);
    const past = await page('page=5&size=10');
    expect([past.status, past.body.content, past.body.empty, past.body.last]).toEqual([200, [], true, true]);
    const big = await page('size=1000');
    expect([big.body.size, big.body.pageable.pageSize, big.body.content.length]).toEqual([100, 100, 12]);
  });

  it.each(['page=-1', 'size=0', 'size=abc', 'page=1.5', 'state=DONE'])(
    '%s → 400 GENERAL_VALIDATION_ERROR',
    async (q) => {
      const r = await call<{ internalErrorName: string }>(sb.url, `${LIST}?${q}`);
      expect([r.status, r.body.internalErrorName]).toEqual([400, 'GENERAL_VALIDATION_ERROR']);
    },
  );

  it('filters by state, repeated or comma-separated (C4)', async () => {
    clock += 5000; // all garbage uploads have failed by now, once each body has been probed
    await Promise.all(ids.map((id) => waitFinished(sb.url, id, 30_000)));
    expect((await page('state=READY')).body.totalElements).toBe(0);
    expect((await page('state=FAILED')).body.totalElements).toBe(12);
    expect((await page('state=READY,FAILED')).body.totalElements).toBe(12);
    expect((await page('state=READY&state=COMPLETED')).body.totalElements).toBe(0);
  });
});

describe('find, cancel, components (§5)', () => {
  it('find: unknown 404, malformed 400 (C15)', async () => {
    const unknown = await call<{ internalErrorName: string }>(sb.url, `${LIST}/${randomUUID()}`);
    expect([unknown.status, unknown.body.internalErrorName]).toEqual([404, 'GENERAL_NOT_FOUND_ERROR']);
    const bad = await call<{ internalErrorName: string }>(sb.url, `${LIST}/not-a-uuid/components`);
    expect([bad.status, bad.body.internalErrorName]).toEqual([400, 'GENERAL_VALIDATION_ERROR']);
  });

  it('cancel READY → FAILED at once; again → 409; unknown → 404 (C16)', async () => {
    const id = (await upload(sb.url, Buffer.from('RIFF....'))).body.streamId;
    const c = await call<StreamDto>(sb.url, `${LIST}/${id}/cancel`, { method: 'PUT' });
    expect(c.status).toBe(200);
    expect([c.body.state, c.body.stateDescription]).toEqual(['FAILED', 'Stream canceled by user']);
    expect(c.body.finalizedTimestamp).toBe(new Date(clock).toISOString());
    const comps = await components(sb.url, id);
    expect(comps.gateway.state).toBe('CLOSED');
    expect(
      comps.processors.every((p) => p.state === 'ERROR' && p.stateDescription === 'External close signal received'),
    ).toBe(true);
    const again = await call<{ internalErrorName: string }>(sb.url, `${LIST}/${id}/cancel`, { method: 'PUT' });
    expect([again.status, again.body.internalErrorName]).toEqual([409, 'GENERAL_CONFLICT_ERROR']);
    expect((await call(sb.url, `${LIST}/${randomUUID()}/cancel`, { method: 'PUT' })).status).toBe(404);
  });

  it('a stream expires retentionMs after finalisation and stays listed (C23)', async () => {
    const s = await startSandbox({ now: () => clock, fixedProcessingMs: 100, retentionMs: 10_000 });
    try {
      const id = (await upload(s.url, Buffer.from('garbage'))).body.streamId;
      clock += 200;
      expect((await waitFinished(s.url, id)).state).toBe('FAILED');
      clock += 10_000;
      expect((await waitFinished(s.url, id)).state).toBe('EXPIRED');
      const listed = await call<Page<StreamDto>>(s.url, `${LIST}?state=EXPIRED`);
      expect(listed.body.content.map((x) => x.streamId)).toEqual([id]);
    } finally {
      await s.close();
    }
  });
});
