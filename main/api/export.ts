// Export service (§6): one stream as JSON. The text is returned exactly as received so the caller
// can save it byte-for-byte (§6.6); the parsed object is for reading only.
import type { HttpCore } from './http.js';
import { parseExport } from './responses.js';
import type { CallOptions } from './streams.js';
import type { ExportResult } from '../service/types.js';
import { requireInt, requireUuid } from './validate.js';

export type ExportOutcome =
  | {
      outcome: 'result';
      /** The body decoded as UTF-8, BOM and all: save this. */
      text: string;
      bytes: Uint8Array;
      result: ExportResult;
    }
  /** 204: the export worked but the stream carried no data; report it, do not save it (§15.4). */
  | { outcome: 'no-data' };

export interface ExportOptions extends CallOptions {
  /** Per-attempt timeout; default TIMEOUTS_MS.export (a long stream's export is one slow response). */
  timeoutMs?: number;
  /** Sent as `timeout`: how long the service may wait for a still-READY stream (C17). */
  waitMs?: number;
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export class ExportApi {
  constructor(private readonly core: HttpCore) {}

  async json(streamId: string, opts: ExportOptions = {}): Promise<ExportOutcome> {
    const op = 'export stream';
    const id = requireUuid(op, 'stream id', streamId);
    const query: Array<[string, string]> = [['streams', id]];
    if (opts.waitMs !== undefined) query.push(['timeout', String(requireInt(op, 'export wait', opts.waitMs, 0))]);
    const path = '/export/JSON';
    const res = await this.core.call({
      service: 'export',
      operation: op,
      method: 'GET',
      path,
      query,
      timeoutMs: opts.timeoutMs ?? this.core.timeouts.export,
      retry: 'idempotent',
      signal: opts.signal,
    });
    if (res.status === 204) return { outcome: 'no-data' };
    const text = decoder.decode(res.body);
    const result = parseExport(text.replace(/^\uFEFF/, ''), this.core.where('export', path)) as ExportResult;
    return { outcome: 'result', text, bytes: new Uint8Array(res.body), result };
  }
}
