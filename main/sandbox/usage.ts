// Usage aggregation (§7, C19). Pure: usage records in, UsageReportDto out. Credits are kept as
// integer micro-credits so sums never drift, and rendered with ≤ 6 decimals and no exponent.
import { USAGE } from '../service/policy.js';
import type {
  Granularity,
  OperationType,
  UsageMeasurements,
  UsageRecordDto,
  UsageReportDto,
  UsageReportItemDto,
} from '../service/types.js';

const MICRO = 10 ** USAGE.decimals;

/** Credits of one processor's usage (§7.4 formula), in micro-credits. */
export function microCredits(r: {
  operationType: OperationType;
  processedAudioLength: number;
  processedTokens: number;
}): number {
  let credits = 0;
  if (r.operationType === 'BATCH_TRANSCRIPTION' || r.operationType === 'SPEAKERS_DIARIZATION') {
    credits += (r.processedAudioLength / 60_000) * USAGE.creditsPerAudioMinute;
  }
  credits += (r.processedTokens / 1000) * USAGE.creditsPer1000Tokens;
  return Math.round(credits * MICRO);
}

/** Micro-units → decimal string: "0", "1.5", "0.000017". */
export function formatMicro(micro: number): string {
  const sign = micro < 0 ? '-' : '';
  const abs = Math.abs(Math.round(micro));
  const int = Math.floor(abs / MICRO);
  const frac = String(abs % MICRO)
    .padStart(USAGE.decimals, '0')
    .replace(/0+$/, '');
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

export function parseMicro(text: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(text);
  if (!m) throw new Error(`Not a decimal amount: ${text}`);
  const v = Number(m[2]) * MICRO + Number((m[3] ?? '').padEnd(USAGE.decimals, '0'));
  return m[1] ? -v : v;
}

/** Credits → currency (null = credits). Throws for an unsupported currency (CURRENCY_ERROR). */
export function convertMicro(micro: number, currency: string | null): number {
  if (currency === null) return micro;
  const rate = USAGE.currencyPerCredit[currency];
  if (rate === undefined) throw new Error(`Unsupported currency: ${currency}`);
  return Math.round(micro * rate);
}

export function isSupportedCurrency(c: string): boolean {
  return USAGE.currencyPerCredit[c] !== undefined;
}

export function bucketStart(ts: number, g: Granularity): number {
  const d = new Date(ts);
  if (g === 'HOURS') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
  if (g === 'DAYS') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export function bucketEnd(start: number, g: Granularity): number {
  const d = new Date(start);
  if (g === 'HOURS') return start + 3600_000;
  if (g === 'DAYS') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

const FIELDS = [
  'executionTime',
  'storageSize',
  'ingressSize',
  'egressSize',
  'processedAudioLength',
  'processedTokens',
  'processedInputTokens',
  'processedOutputTokens',
] as const;

function item(
  records: readonly UsageRecordDto[],
  start: number,
  end: number,
  currency: string | null,
  extra: Partial<UsageReportItemDto> = {},
): UsageReportItemDto {
  const measurements = Object.fromEntries(
    FIELDS.map((f) => [f, String(records.reduce((s, r) => s + r[f], 0))]),
  ) as unknown as UsageMeasurements;
  const micro = records.reduce((s, r) => s + parseMicro(r.credits), 0);
  return {
    credits: formatMicro(convertMicro(micro, currency)),
    startTimestamp: start,
    endTimestamp: end,
    streamsCount: new Set(records.map((r) => r.streamId)).size,
    ...extra,
    measurements,
  };
}

function groupBy<K>(records: readonly UsageRecordDto[], key: (r: UsageRecordDto) => K): Map<K, UsageRecordDto[]> {
  const out = new Map<K, UsageRecordDto[]>();
  for (const r of records) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/** Records carry credits (not currency); [start, end) filters by record timestamp. */
export function buildReport(
  records: readonly UsageRecordDto[],
  q: { start: number; end: number; granularity: Granularity; currency: string | null },
): UsageReportDto {
  const inside = records.filter((r) => r.timestamp >= q.start && r.timestamp < q.end);
  const buckets = [...groupBy(inside, (r) => bucketStart(r.timestamp, q.granularity))].sort((a, b) => a[0] - b[0]);
  const per = <K extends string>(
    key: (r: UsageRecordDto) => K,
    field: 'operationType' | 'streamConfigurationTemplateId',
  ) =>
    buckets.flatMap(([b, list]) =>
      [...groupBy(list, key)]
        .sort((x, y) => (x[0] < y[0] ? -1 : 1))
        .map(([k, l]) => item(l, b, bucketEnd(b, q.granularity), q.currency, { [field]: k })),
    );
  return {
    startTimestamp: q.start,
    endTimestamp: q.end,
    granularity: q.granularity,
    currency: q.currency,
    totalMeasurements: item(inside, q.start, q.end, q.currency),
    aggregatedMeasurements: buckets.map(([b, list]) => item(list, b, bucketEnd(b, q.granularity), q.currency)),
    operationTypeAggregatedMeasurements: per((r) => r.operationType, 'operationType'),
    streamConfigurationTemplateIdAggregatedMeasurements: per(
      (r) => r.streamConfigurationTemplateId,
      'streamConfigurationTemplateId',
    ),
  };
}
