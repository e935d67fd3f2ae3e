// usage:* handlers. The service's validation errors (interval too long or short, unknown currency)
// come back as field errors on the form's fields, so the Usage screen shows them in place.
import type { Channel, FieldError, UsageQuery, UsageView } from '../../preload/contract.js';
import { amountLabel, measurementLabel, MEASUREMENT_LABELS } from '../../preload/labels.js';
import { ServiceError } from '../service/errors.js';
import { csvField } from '../engine/captions/formats.js';
import { validation } from './errors.js';
import { fileCost } from './file-cost.js';
import type { HandlerContext, RawHandlers } from './handler-context.js';
import { toUsageView } from './views.js';

type UsageChannels = Extract<Channel, `usage:${string}`>;
const FIELDS = ['granularity', 'currency', 'start', 'end'] as const;

function guessField(text: string): (typeof FIELDS)[number] {
  const lower = text.toLowerCase();
  return FIELDS.find((f) => lower.includes(f)) ?? 'start';
}

/** "Afghan Afghani (AFN)" for a code the runtime knows by name; the code alone otherwise. */
function currencyLabel(code: string | undefined): string {
  if (!code) return 'this currency';
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'currency' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/** The service's (or the client's own) refusal of a usage query, as field errors; undefined when not one. */
function usageFieldErrors(e: unknown, currency?: string): FieldError[] | undefined {
  if (!(e instanceof ServiceError)) return undefined;
  const message = e.message;
  switch (e.internalErrorName) {
    case 'USAGE_INTERVAL_TOO_LONG':
      return [{ path: 'end', message: `The period is too long for this granularity. ${message}` }];
    case 'USAGE_INTERVAL_TOO_SHORT':
      return [{ path: 'end', message: `The end must come after the start. ${message}` }];
    case 'CURRENCY_ERROR':
      // "Unsupported currency: AFN" in an editor's words: which currency, and what to do.
      return [
        {
          path: 'currency',
          message: `The service does not price usage in ${currencyLabel(currency)}. Choose another currency, or Credits.`,
        },
      ];
    case 'GENERAL_VALIDATION_ERROR': {
      const nested = e.nestedErrors.map((n) => `${n.title} ${n.message}`).join(' ');
      return [{ path: guessField(`${nested} ${message}`), message }];
    }
  }
  if (e.kind === 'input') return [{ path: guessField(message), message }];
  return undefined;
}

async function report(ctx: HandlerContext<'connection' | 'queue' | 'settings'>, q: UsageQuery): Promise<UsageView> {
  const { connection, queue, settings } = ctx;
  try {
    const r = await connection.usageReport({
      ...(q.start ? { start: q.start } : {}),
      ...(q.end ? { end: q.end } : {}),
      ...(q.granularity ? { granularity: q.granularity } : {}),
      ...(q.currency ? { currency: q.currency } : {}),
    });
    const guard = settings.get().spendingGuard;
    const cap = {
      enabled: guard.enabled,
      monthlyCreditCap: guard.monthlyCreditCap,
      pausedByCap: queue.pauseState?.reason === 'spending-cap',
    };
    return toUsageView(r, cap, connection.simulated);
  } catch (e) {
    const fields = usageFieldErrors(e, q.currency);
    if (fields) throw validation(fields);
    throw e;
  }
}

/** Integers in the report's unit, as the CSV column's unit: hours for times (to the millisecond). */
function csvValue(key: string, raw: string | undefined): string {
  if (raw === undefined || raw === '') return '';
  if (MEASUREMENT_LABELS[key]?.unit !== 'ms') return raw;
  const ms = Number(raw);
  return Number.isFinite(ms) ? String(Number((ms / 3_600_000).toFixed(7))) : raw;
}

/** Every header names its unit; the service's field names become the labels the screen shows. */
export function usageCsv(v: UsageView): string {
  const keys = Object.keys(v.total.measurements);
  const head = [
    'Period start (UTC)',
    'Period end (UTC)',
    amountLabel(v.currency),
    'Streams (count)',
    ...keys.map((k) => MEASUREMENT_LABELS[k]?.csv ?? measurementLabel(k)),
  ];
  const rows = [...v.byPeriod, { ...v.total }].map((i, n, all) => [
    n === all.length - 1 ? 'Total' : new Date(i.startTimestamp).toISOString(),
    new Date(i.endTimestamp).toISOString(),
    i.credits,
    i.streamsCount,
    ...keys.map((k) => csvValue(k, i.measurements[k])),
  ]);
  return [head, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n';
}

export function usageHandlers(ctx: HandlerContext<'connection' | 'queue' | 'settings'>): RawHandlers<UsageChannels> {
  return {
    'usage:report': (q) => report(ctx, q),
    'usage:csv': async (q) => {
      const v = await report(ctx, q);
      const day = (t: number) => new Date(t).toISOString().slice(0, 10);
      return { fileName: `sluice-usage-${day(v.startTimestamp)}-to-${day(v.endTimestamp)}.csv`, csv: usageCsv(v) };
    },
    'usage:stream': ({ streamId }) => fileCost(ctx, streamId),
    'usage:currencies': () => ctx.connection.pricedCurrencies(),
  };
}
