import { describe, expect, it } from 'vitest';
import type { UsageRecordDto } from '../../main/service/types.js';
import {
  bucketEnd,
  bucketStart,
  buildReport,
  convertMicro,
  formatMicro,
  microCredits,
  parseMicro,
} from '../../main/sandbox/usage.js';

const rec = (over: Partial<UsageRecordDto>): UsageRecordDto => ({
  creatorId: 'c',
  groupId: 'g',
  streamId: 's1',
  processorId: 'transcriber',
  streamConfigurationTemplateId: 't1',
  operationType: 'BATCH_TRANSCRIPTION',
  timestamp: Date.UTC(2025, 2, 4, 9, 15),
  credits: '1',
  executionTime: 100,
  storageSize: 10,
  ingressSize: 1000,
  egressSize: 5,
  processedAudioLength: 60_000,
  processedTokens: 0,
  processedInputTokens: 0,
  processedOutputTokens: 0,
  finalUsage: true,
  errorOccurred: false,
  ...over,
});

describe('credits', () => {
  it.each([
    [0, '0'],
    [1_500_000, '1.5'],
    [17, '0.000017'],
    [123_456_789, '123.456789'],
    [1e15, '1000000000'],
  ])('formats %i micro-credits as %s', (micro, text) => {
    expect(formatMicro(micro)).toBe(text);
    expect(parseMicro(text)).toBe(micro);
  });

  it('charges one credit per audio minute for transcription and diarization, tokens per 1,000', () => {
    expect(
      microCredits({ operationType: 'BATCH_TRANSCRIPTION', processedAudioLength: 90_000, processedTokens: 0 }),
    ).toBe(1_500_000);
    expect(
      microCredits({ operationType: 'SPEAKERS_DIARIZATION', processedAudioLength: 60_000, processedTokens: 0 }),
    ).toBe(1_000_000);
    expect(microCredits({ operationType: 'LLM_PROCESSING', processedAudioLength: 60_000, processedTokens: 2000 })).toBe(
      400_000,
    );
    expect(microCredits({ operationType: 'NO_OPERATION', processedAudioLength: 60_000, processedTokens: 0 })).toBe(0);
  });

  it('converts at the fixed rate of each currency it knows and refuses the others', () => {
    expect(formatMicro(convertMicro(2_000_000, 'USD'))).toBe('0.02');
    expect(formatMicro(convertMicro(2_000_000, null))).toBe('2');
    expect(convertMicro(2_000_000, 'GBP')).toBeGreaterThan(0);
    expect(() => convertMicro(1, 'XTS')).toThrow(/XTS/);
  });
});

describe('UTC buckets', () => {
  const t = Date.UTC(2024, 1, 29, 23, 59, 59, 999); // leap day, last millisecond
  it.each([
    ['HOURS', Date.UTC(2024, 1, 29, 23), Date.UTC(2024, 2, 1, 0)],
    ['DAYS', Date.UTC(2024, 1, 29), Date.UTC(2024, 2, 1)],
    ['MONTHS', Date.UTC(2024, 1, 1), Date.UTC(2024, 2, 1)],
  ] as const)('%s', (g, start, end) => {
    expect(bucketStart(t, g)).toBe(start);
    expect(bucketEnd(start, g)).toBe(end);
  });
  it('December rolls over into January', () => {
    expect(bucketEnd(Date.UTC(2024, 11, 1), 'MONTHS')).toBe(Date.UTC(2025, 0, 1));
  });
});

describe('report', () => {
  const h9 = Date.UTC(2025, 2, 4, 9);
  const records = [
    rec({ timestamp: h9 + 60_000 }),
    rec({
      timestamp: h9 + 120_000,
      operationType: 'SPEAKERS_DIARIZATION',
      processorId: 'diarization',
      credits: '0.5',
      ingressSize: 0,
    }),
    rec({ streamId: 's2', streamConfigurationTemplateId: 't2', timestamp: h9 + 2 * 3600_000, credits: '0.25' }),
    rec({ streamId: 's3', timestamp: Date.UTC(2025, 1, 1) }), // outside the interval
  ];
  const q = { start: Date.UTC(2025, 2, 1), end: Date.UTC(2025, 3, 1), granularity: 'HOURS' as const, currency: null };

  it('totals the interval and counts distinct streams', () => {
    const r = buildReport(records, q);
    expect(r.totalMeasurements).toMatchObject({
      credits: '1.75',
      streamsCount: 2,
      startTimestamp: q.start,
      endTimestamp: q.end,
    });
    expect(r.totalMeasurements.measurements.ingressSize).toBe('2000');
    expect(r.totalMeasurements.measurements.processedAudioLength).toBe('180000');
  });

  it('omits empty buckets and aligns the others to UTC hours', () => {
    const r = buildReport(records, q);
    expect(r.aggregatedMeasurements.map((i) => [i.startTimestamp, i.endTimestamp, i.credits])).toEqual([
      [h9, h9 + 3600_000, '1.5'],
      [h9 + 2 * 3600_000, h9 + 3 * 3600_000, '0.25'],
    ]);
  });

  it('splits buckets by operation type and by template', () => {
    const r = buildReport(records, q);
    expect(r.operationTypeAggregatedMeasurements.map((i) => [i.startTimestamp, i.operationType, i.credits])).toEqual([
      [h9, 'BATCH_TRANSCRIPTION', '1'],
      [h9, 'SPEAKERS_DIARIZATION', '0.5'],
      [h9 + 2 * 3600_000, 'BATCH_TRANSCRIPTION', '0.25'],
    ]);
    expect(r.streamConfigurationTemplateIdAggregatedMeasurements.map((i) => i.streamConfigurationTemplateId)).toEqual([
      't1',
      't2',
    ]);
  });

  it('DAYS merges the hours, and currency applies to every item', () => {
    const r = buildReport(records, { ...q, granularity: 'DAYS', currency: 'EUR' });
    expect(r.aggregatedMeasurements).toHaveLength(1);
    expect(r.aggregatedMeasurements[0]).toMatchObject({ startTimestamp: Date.UTC(2025, 2, 4), credits: '0.0161' });
    expect(r.currency).toBe('EUR');
  });

  it('an interval without usage has zero totals and no items', () => {
    const r = buildReport(records, { ...q, start: Date.UTC(2030, 0, 1), end: Date.UTC(2030, 0, 2) });
    expect(r.totalMeasurements.credits).toBe('0');
    expect(r.aggregatedMeasurements).toEqual([]);
  });
});
