import { describe, expect, it } from 'vitest';
import type { UsageItemView, UsageView } from '../../preload/contract.js';
import { usageCsv } from '../../main/ipc/handle-usage.js';
import { addDecimal, totalsBy } from '../../main/ipc/usage-totals.js';

const item = (start: string, end: string, credits: string, measurements: Record<string, string>): UsageItemView => ({
  credits,
  startTimestamp: Date.parse(start),
  endTimestamp: Date.parse(end),
  streamsCount: 2,
  measurements,
});

describe('usage CSV', () => {
  it('one row per period and a total; numbers as numbers; a formula-like name from the service stays text', () => {
    const m = { audioMs: '60000', '=cmd|calc': '3' };
    const view: UsageView = {
      startTimestamp: Date.parse('2026-11-01T00:00:00Z'),
      endTimestamp: Date.parse('2026-11-03T00:00:00Z'),
      granularity: 'DAYS',
      currency: null,
      total: item('2026-11-01T00:00:00Z', '2026-11-03T00:00:00Z', '12.5', m),
      byPeriod: [item('2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z', '12.5', m)],
      byOperation: [],
      byTemplate: [],
      cap: { enabled: false, monthlyCreditCap: null, pausedByCap: false },
      simulated: true,
    };
    expect(usageCsv(view).split('\n')).toEqual([
      `Period start (UTC),Period end (UTC),Credits,Streams (count),Audio ms,"'=cmd|calc"`,
      '2026-11-01T00:00:00.000Z,2026-11-02T00:00:00.000Z,12.5,2,60000,3',
      'Total,2026-11-03T00:00:00.000Z,12.5,2,60000,3',
      '',
    ]);
  });

  it('names the unit of every column: the currency of amounts, hours for times, bytes for sizes', () => {
    const m = {
      processedAudioLength: '5400000',
      executionTime: '900000',
      ingressSize: '1048576',
      processedTokens: '12',
    };
    const view: UsageView = {
      startTimestamp: Date.parse('2026-11-01T00:00:00Z'),
      endTimestamp: Date.parse('2026-11-02T00:00:00Z'),
      granularity: 'DAYS',
      currency: 'USD',
      total: item('2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z', '3.75', m),
      byPeriod: [item('2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z', '3.75', m)],
      byOperation: [],
      byTemplate: [],
      cap: { enabled: false, monthlyCreditCap: null, pausedByCap: false },
      simulated: false,
    };
    const [head, first] = usageCsv(view).split('\n');
    expect(head).toBe(
      'Period start (UTC),Period end (UTC),Amount (USD),Streams (count),Audio processed (hours),Processing time (hours),Uploaded (bytes),AI tokens (count)',
    );
    expect(first).toBe('2026-11-01T00:00:00.000Z,2026-11-02T00:00:00.000Z,3.75,2,1.5,0.25,1048576,12');
  });
});

describe('usage totals', () => {
  const bucket = (hour: number, extra: Partial<UsageItemView>, credits: string): UsageItemView => ({
    ...item(`2026-11-01T0${hour}:00:00Z`, `2026-11-01T0${hour + 1}:00:00Z`, credits, { executionTime: '1000' }),
    ...extra,
  });
  it('adds the hourly buckets up: one item per operation and per template, amounts exact', () => {
    const items = [
      bucket(1, { operationType: 'BATCH_TRANSCRIPTION' }, '0.1'),
      bucket(1, { operationType: 'SPEAKERS_DIARIZATION' }, '1'),
      bucket(2, { operationType: 'BATCH_TRANSCRIPTION' }, '0.2'),
      bucket(3, { operationType: 'BATCH_TRANSCRIPTION' }, '0.05'),
    ];
    const totals = totalsBy(items, (i) => i.operationType);
    expect(totals.map((t) => [t.operationType, t.credits, t.streamsCount, t.measurements.executionTime])).toEqual([
      ['BATCH_TRANSCRIPTION', '0.35', 6, '3000'],
      ['SPEAKERS_DIARIZATION', '1', 2, '1000'],
    ]);
    expect(totals[0]).toMatchObject({
      startTimestamp: Date.parse('2026-11-01T01:00:00Z'),
      endTimestamp: Date.parse('2026-11-01T04:00:00Z'),
    });
  });
  it('adds decimal strings exactly', () => {
    expect(addDecimal('0.1', '0.2')).toBe('0.3');
    expect(addDecimal('12', '0.005')).toBe('12.005');
    expect(addDecimal('1.5', '-2')).toBe('-0.5');
    expect(addDecimal('bad', '2.50')).toBe('2.5');
  });
});
