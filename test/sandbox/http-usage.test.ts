import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, SANDBOX } from '../../main/service/policy.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import type { StreamUsageDto, UsageReportDto } from '../../main/service/types.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { call, exportJson, upload, waitFinished } from './client.js';

let sb: Sandbox;
let wavPath: string;
let wavBytes: number;
/** Bytes of the one export made: the stream's egress, and what its persisted result takes. */
let exportBytes: number;
const ids: string[] = [];
const REPORT = `${API_PREFIX.usage}/usage/report`;

beforeAll(async () => {
  sb = await startSandbox({ speedFactor: 0.01 });
  wavPath = await makeToneWav(await makeMediaDir(), 'minute.wav', 30);
  wavBytes = (await readFile(wavPath)).length;
  const a = await upload(sb.url, wavPath, { template: TEMPLATE_IDS.diarization, params: { summary: 'true' } });
  const b = await upload(sb.url, wavPath, { template: TEMPLATE_IDS.transcription });
  ids.push(a.body.streamId, b.body.streamId);
  for (const id of ids) await waitFinished(sb.url, id);
  exportBytes = Buffer.byteLength((await exportJson(sb.url, a.body.streamId)).text);
});
afterAll(() => sb.close());

describe('usage report (§7, C19)', () => {
  it('aggregates what was really processed', async () => {
    const r = await call<UsageReportDto>(sb.url, REPORT);
    expect(r.status).toBe(200);
    const total = r.body.totalMeasurements;
    expect(total.streamsCount).toBe(2);
    expect(Number(total.measurements.ingressSize)).toBe(2 * wavBytes);
    // transcriber ×2 + diarization ×1, 30 s each
    expect(Math.abs(Number(total.measurements.processedAudioLength) - 90_000)).toBeLessThan(100);
    expect(Number(total.measurements.processedTokens)).toBeGreaterThan(0);
    expect(Number(total.measurements.egressSize)).toBe(exportBytes);
    expect(Number(total.measurements.executionTime)).toBeGreaterThan(0);
    expect(total.credits).toMatch(/^\d+(\.\d{1,6})?$/);
    // 1.5 audio minutes = 1.5 credits, plus the llm tokens
    expect(Number(total.credits)).toBeGreaterThan(1.49);
    expect(Object.values(total.measurements).every((v) => /^\d+$/.test(v))).toBe(true);
    expect(r.body).toMatchObject({ granularity: 'HOURS', currency: null });
  });

  it('splits by operation type and template, buckets aligned to the UTC hour', async () => {
    const r = (await call<UsageReportDto>(sb.url, REPORT)).body;
    expect(r.operationTypeAggregatedMeasurements.map((i) => i.operationType).sort()).toEqual([
      'BATCH_TRANSCRIPTION',
      'LLM_PROCESSING',
      'SPEAKERS_DIARIZATION',
    ]);
    expect(
      r.streamConfigurationTemplateIdAggregatedMeasurements.map((i) => i.streamConfigurationTemplateId).sort(),
    ).toEqual([TEMPLATE_IDS.transcription, TEMPLATE_IDS.diarization].sort());
    for (const item of r.aggregatedMeasurements) {
      expect(item.startTimestamp % 3600_000).toBe(0);
      expect(item.endTimestamp - item.startTimestamp).toBe(3600_000);
    }
  });

  it('converts to a supported currency', async () => {
    const credits = Number((await call<UsageReportDto>(sb.url, REPORT)).body.totalMeasurements.credits);
    const usd = (await call<UsageReportDto>(sb.url, `${REPORT}?currency=USD`)).body;
    expect(usd.currency).toBe('USD');
    expect(Number(usd.totalMeasurements.credits)).toBeCloseTo(credits * 0.01, 5);
  });

  it('an interval elsewhere is empty', async () => {
    const r = await call<UsageReportDto>(sb.url, `${REPORT}?start=2020-01-01T00:00:00Z&end=2020-01-02T00:00:00Z`);
    expect([r.status, r.body.totalMeasurements.credits, r.body.aggregatedMeasurements]).toEqual([200, '0', []]);
  });

  it.each([
    ['start=2025-01-02T00:00:00Z&end=2025-01-01T00:00:00Z', 'USAGE_INTERVAL_TOO_SHORT'],
    ['start=2025-01-01T00:00:00Z&end=2025-03-01T00:00:00Z&granularity=HOURS', 'USAGE_INTERVAL_TOO_LONG'],
    ['start=2020-01-01T00:00:00Z&end=2025-03-01T00:00:00Z&granularity=DAYS', 'USAGE_INTERVAL_TOO_LONG'],
    ['start=yesterday', 'GENERAL_VALIDATION_ERROR'],
    ['granularity=WEEKS', 'GENERAL_VALIDATION_ERROR'],
    ['currency=XTS', 'CURRENCY_ERROR'],
    ['currency=usd', 'CURRENCY_ERROR'],
  ])('%s → 400 %s', async (q, name) => {
    const r = await call<{ internalErrorName: string }>(sb.url, `${REPORT}?${q}`);
    expect([r.status, r.body.internalErrorName]).toEqual([400, name]);
  });

  it('MONTHS over a year is fine', async () => {
    const r = await call<UsageReportDto>(
      sb.url,
      `${REPORT}?start=2025-01-01T00:00:00Z&end=2026-01-01T00:00:00Z&granularity=MONTHS`,
    );
    expect(r.status).toBe(200);
  });
});

describe('stream usage (§7.3)', () => {
  it('one final record per processor that ran', async () => {
    const r = await call<StreamUsageDto>(sb.url, `${API_PREFIX.usage}/usage/streams/${ids[0]}?currency=EUR`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      streamId: ids[0],
      groupId: ids[0],
      creatorId: SANDBOX.creatorId,
      currency: 'EUR',
      streamConfigurationTemplateId: TEMPLATE_IDS.diarization,
    });
    expect(r.body.processors.map((p) => [p.processorId, p.operationType, p.finalUsage, p.errorOccurred])).toEqual([
      ['transcriber', 'BATCH_TRANSCRIPTION', true, false],
      ['diarization', 'SPEAKERS_DIARIZATION', true, false],
      ['llm', 'LLM_PROCESSING', true, false],
    ]);
    const t = r.body.processors[0]!;
    expect(t.ingressSize).toBe(wavBytes);
    expect(t.storageSize).toBe(exportBytes);
    expect(t.egressSize).toBe(exportBytes);
    expect(t.credits).toBe('0.0046'); // 0.5 min × 1 credit × 0.0092 EUR
  });

  it('no llm record when no prompt ran; 404 unknown', async () => {
    const r = await call<StreamUsageDto>(sb.url, `${API_PREFIX.usage}/usage/streams/${ids[1]}`);
    expect(r.body.processors.map((p) => p.processorId)).toEqual(['transcriber']);
    expect((await call(sb.url, `${API_PREFIX.usage}/usage/streams/${randomUUID()}`)).status).toBe(404);
  });
});
