// Stream service (§5): find, list, cancel, components.
import { ServiceError } from '../service/errors.js';
import { inputError } from './error-mapping.js';
import type { HttpCore } from './http.js';
import { PAGE } from '../service/policy.js';
import { parseComponents, parsePage, parseStream } from './responses.js';
import {
  STREAM_STATES,
  type Page,
  type StreamComponentsDto,
  type StreamDto,
  type StreamState,
} from '../service/types.js';
import { requireInt, requireUuid } from './validate.js';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ListStreamsOptions extends CallOptions {
  /** Zero-based (default 0). */
  page?: number;
  /** Default PAGE.defaultSize; the service caps large values (C13), the cap shows in `size`. */
  size?: number;
  /** One or more states; repeated as `state=` (C4). */
  states?: StreamState | readonly StreamState[];
}

export interface CancelResult {
  stream: StreamDto;
  /** True when a replayed cancel met 409: the first attempt most likely took effect. */
  alreadyFinished: boolean;
}

export class StreamsApi {
  constructor(private readonly core: HttpCore) {}

  async find(streamId: string, opts: CallOptions = {}): Promise<StreamDto> {
    const id = requireUuid('find stream', 'stream id', streamId);
    const path = `/streams/${id}`;
    const res = await this.core.call({
      service: 'stream',
      operation: 'find stream',
      method: 'GET',
      path,
      timeoutMs: this.core.timeouts.read,
      retry: 'idempotent',
      signal: opts.signal,
    });
    return parseStream(res.body, this.core.where('stream', path));
  }

  async list(opts: ListStreamsOptions = {}): Promise<Page<StreamDto>> {
    const op = 'list streams';
    const page = requireInt(op, 'page', opts.page ?? 0, 0);
    const size = requireInt(op, 'page size', opts.size ?? PAGE.defaultSize, 1);
    const states: readonly StreamState[] = typeof opts.states === 'string' ? [opts.states] : (opts.states ?? []);
    for (const s of states) {
      if (!STREAM_STATES.includes(s))
        throw inputError(op, `Unknown stream state "${String(s)}" (one of ${STREAM_STATES.join(', ')}).`);
    }
    const query: Array<[string, string]> = [
      ['page', String(page)],
      ['size', String(size)],
      ...states.map((s): [string, string] => ['state', s]),
    ];
    const res = await this.core.call({
      service: 'stream',
      operation: op,
      method: 'GET',
      path: '/streams',
      query,
      timeoutMs: this.core.timeouts.read,
      retry: 'idempotent',
      signal: opts.signal,
    });
    return parsePage(res.body, this.core.where('stream', '/streams'));
  }

  /** Every stream in the given states, page after page until `last` (§15.3). */
  async *iterate(opts: Omit<ListStreamsOptions, 'page'> = {}): AsyncGenerator<StreamDto> {
    for (let page = 0; ; page++) {
      const p = await this.list({ ...opts, page, size: opts.size ?? PAGE.maxSize });
      yield* p.content;
      if (p.last || p.content.length === 0) return;
    }
  }

  /**
   * C16: READY → FAILED at once. A 409 on the first attempt is thrown (class 'state': the stream had
   * already finished). A cancel is replayed only when no answer came back; if the replay then meets
   * 409, the lost first attempt most likely did it, so the stream is re-read and returned.
   */
  async cancel(streamId: string, opts: CallOptions = {}): Promise<CancelResult> {
    const id = requireUuid('cancel stream', 'stream id', streamId);
    const path = `/streams/${id}/cancel`;
    let replayed = false;
    try {
      const res = await this.core.call({
        service: 'stream',
        operation: 'cancel stream',
        method: 'PUT',
        path,
        timeoutMs: this.core.timeouts.cancel,
        retry: 'network',
        signal: opts.signal,
        onRetry: () => {
          replayed = true;
        },
      });
      return { stream: parseStream(res.body, this.core.where('stream', path)), alreadyFinished: false };
    } catch (e) {
      if (replayed && e instanceof ServiceError && e.statusCode === 409) {
        return { stream: await this.find(id, opts), alreadyFinished: true };
      }
      throw e;
    }
  }

  async components(streamId: string, opts: CallOptions = {}): Promise<StreamComponentsDto> {
    const id = requireUuid('read stream components', 'stream id', streamId);
    const path = `/streams/${id}/components`;
    const res = await this.core.call({
      service: 'stream',
      operation: 'read stream components',
      method: 'GET',
      path,
      timeoutMs: this.core.timeouts.read,
      retry: 'idempotent',
      signal: opts.signal,
    });
    return parseComponents(res.body, this.core.where('stream', path));
  }
}
