// Usage service (§7): the account report and one stream's usage.
import { inputError } from './error-mapping.js';
import type { HttpCore } from './http.js';
import { parseStreamUsage, parseUsageReport } from './responses.js';
import type { CallOptions } from './streams.js';
import { GRANULARITIES, type Granularity, type StreamUsageDto, type UsageReportDto } from '../service/types.js';
import { requireUuid, toIsoDate } from './validate.js';

export interface UsageReportOptions extends CallOptions {
  /** Default (service side): 1st of the current UTC month. */
  start?: Date | string;
  /** Default (service side): now. end ≤ start is the service's to reject (§7.4). */
  end?: Date | string;
  granularity?: Granularity;
  /** Absent: amounts in credits. */
  currency?: string;
}

export class UsageApi {
  constructor(private readonly core: HttpCore) {}

  async report(opts: UsageReportOptions = {}): Promise<UsageReportDto> {
    const op = 'read usage report';
    const query: Array<[string, string]> = [];
    if (opts.start !== undefined) query.push(['start', toIsoDate(op, 'start', opts.start)]);
    if (opts.end !== undefined) query.push(['end', toIsoDate(op, 'end', opts.end)]);
    if (opts.granularity !== undefined) {
      if (!GRANULARITIES.includes(opts.granularity)) {
        throw inputError(op, `Unknown granularity "${String(opts.granularity)}" (one of ${GRANULARITIES.join(', ')}).`);
      }
      query.push(['granularity', opts.granularity]);
    }
    if (opts.currency !== undefined) query.push(['currency', opts.currency]);
    const path = '/usage/report';
    const res = await this.core.call({
      service: 'usage',
      operation: op,
      method: 'GET',
      path,
      query,
      timeoutMs: this.core.timeouts.usage,
      retry: 'idempotent',
      signal: opts.signal,
    });
    return parseUsageReport(res.body, this.core.where('usage', path));
  }

  async stream(streamId: string, opts: CallOptions & { currency?: string } = {}): Promise<StreamUsageDto> {
    const op = 'read stream usage';
    const id = requireUuid(op, 'stream id', streamId);
    const path = `/usage/streams/${id}`;
    const res = await this.core.call({
      service: 'usage',
      operation: op,
      method: 'GET',
      path,
      query: opts.currency !== undefined ? [['currency', opts.currency]] : [],
      timeoutMs: this.core.timeouts.usage,
      retry: 'idempotent',
      signal: opts.signal,
    });
    return parseStreamUsage(res.body, this.core.where('usage', path));
  }
}
