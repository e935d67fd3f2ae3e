import { describe, expect, it } from 'vitest';
import type { UsageItemView, UsageView } from '../../preload/contract.js';
import { usageCsv } from '../../main/ipc/handle-usage.js';

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
      `period_start,period_end,credits,streams,audioMs,"'=cmd|calc"`,
      '2026-11-01T00:00:00.000Z,2026-11-02T00:00:00.000Z,12.5,2,60000,3',
      'total,2026-11-03T00:00:00.000Z,12.5,2,60000,3',
      '',
    ]);
  });
});
