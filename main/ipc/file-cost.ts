// usage:stream: what one file cost, per operation (engine/stream-cost.ts), in the currency chosen in
// Settings. A currency the service does not price in falls back to credits and says so, rather than
// showing nothing; every failure is answered in words (engine/usage-words.ts).
import type { ErrorCode, FileCostView } from '../../preload/contract.js';
import { streamCost } from '../engine/stream-cost.js';
import { streamUsageProblem, type UsageProblem } from '../engine/usage-words.js';
import { ServiceError } from '../service/errors.js';
import type { StreamUsageDto } from '../service/types.js';
import { BridgeFailure } from './errors.js';
import type { HandlerContext } from './handler-context.js';

const CODES: Record<UsageProblem['kind'], ErrorCode> = {
  gone: 'NOT_FOUND',
  offline: 'OFFLINE',
  credentials: 'CREDENTIALS',
  busy: 'SERVICE',
  'bad-id': 'VALIDATION',
  other: 'SERVICE',
};

function inWords(e: unknown): unknown {
  if (!(e instanceof ServiceError)) return e;
  const p = streamUsageProblem(e);
  return new BridgeFailure(CODES[p.kind], p.message, { retryable: p.retryable });
}

export async function fileCost(
  ctx: HandlerContext<'connection' | 'settings'>,
  streamId: string,
): Promise<FileCostView> {
  const { connection, settings } = ctx;
  const chosen = settings.get().usage.currency ?? undefined;
  let dto: StreamUsageDto;
  let currencyRefused: string | undefined;
  try {
    dto = await connection.streamUsage(streamId, chosen ? { currency: chosen } : {});
  } catch (e) {
    if (!(chosen && e instanceof ServiceError && e.internalErrorName === 'CURRENCY_ERROR')) throw inWords(e);
    currencyRefused = chosen;
    dto = await connection.streamUsage(streamId).catch((again: unknown) => {
      throw inWords(again);
    });
  }
  const cost = streamCost(dto);
  return {
    ...cost,
    ...(currencyRefused ? { currencyRefused } : {}),
    simulated: connection.simulated,
  };
}
