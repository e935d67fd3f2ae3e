// What one file cost: the usage service's records for its stream (§7.3), one line per operation
// and a total. Pure.
//
// Note: a processor sends partial records while it runs and marks its last one `finalUsage` (§7.3).
// Each record is read as the processor's usage so far, not as an increment: per processor the final
// record counts (the latest, should there be two), else its latest record, and the line says it is
// still being counted. Adding every record would count a processor once per record it sent, so a
// long job's cost would grow with how often the service reported, not with what it did.
import type { StreamUsageDto, UsageRecordDto } from '../service/types.js';
import { addDecimal } from './decimal.js';

export interface CostFigures {
  /** Milliseconds of audio processed. */
  audioMs: number;
  /** LLM tokens: read (the transcript and prompts), written (the answers), and the service's total. */
  tokensIn: number;
  tokensOut: number;
  tokens: number;
  /** Decimal string in the report's currency, or credits when it has none. */
  amount: string;
  /** Every record counted is its processor's final one. */
  final: boolean;
}

export interface CostLine extends CostFigures {
  operationType: string;
  /** A processor on this line stopped on an error (its usage up to then is still billed). */
  errorOccurred: boolean;
}

export interface StreamCost {
  streamId: string;
  /** null: amounts are credits. */
  currency: string | null;
  /** One per operation, in the order the service lists its processors. */
  lines: CostLine[];
  total: CostFigures;
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const amountOf = (v: unknown): string => (typeof v === 'string' && /^-?\d*\.?\d+$/.test(v.trim()) ? v.trim() : '0');

/** The record that counts for each processor (see the note above), in the order processors first appear. */
export function countedRecords(records: readonly UsageRecordDto[]): UsageRecordDto[] {
  const best = new Map<string, UsageRecordDto>();
  records.forEach((r, i) => {
    // A record without a processor id stands alone: it cannot be told apart from another's.
    const key = typeof r.processorId === 'string' && r.processorId !== '' ? r.processorId : `#${i}`;
    const had = best.get(key);
    if (!had || better(r, had)) best.set(key, r);
  });
  return [...best.values()];
}

function better(r: UsageRecordDto, than: UsageRecordDto): boolean {
  if (r.finalUsage === true && than.finalUsage !== true) return true;
  if (r.finalUsage !== true && than.finalUsage === true) return false;
  return count(r.timestamp) >= count(than.timestamp);
}

const empty = (): CostFigures => ({ audioMs: 0, tokensIn: 0, tokensOut: 0, tokens: 0, amount: '0', final: true });

function add<T extends CostFigures>(into: T, r: UsageRecordDto): T {
  return {
    ...into,
    audioMs: into.audioMs + count(r.processedAudioLength),
    tokensIn: into.tokensIn + count(r.processedInputTokens),
    tokensOut: into.tokensOut + count(r.processedOutputTokens),
    tokens: into.tokens + count(r.processedTokens),
    amount: addDecimal(into.amount, amountOf(r.credits)),
    final: into.final && r.finalUsage === true,
  };
}

export function streamCost(dto: StreamUsageDto): StreamCost {
  const lines = new Map<string, CostLine>();
  let total = empty();
  for (const r of countedRecords(dto.processors ?? [])) {
    // Loosely parsed (api/responses.ts): a record may lack its operation type.
    const op: string = (r.operationType as string | undefined) || 'NO_OPERATION';
    const line = lines.get(op) ?? { operationType: op, errorOccurred: false, ...empty() };
    lines.set(op, { ...add(line, r), errorOccurred: line.errorOccurred || r.errorOccurred === true });
    total = add(total, r);
  }
  return { streamId: dto.streamId, currency: dto.currency ?? null, lines: [...lines.values()], total };
}
