// What one file cost (usage:stream), read when a person asks in a job's detail and kept per stream
// for the session: a finished stream's usage does not change, and the Queue and History details
// of the same file share it. A stream still being counted is read again on request.
import type { FileCostView } from '../../../../preload/contract';
import { call } from '../api';

export interface FileCostEntry {
  loading: boolean;
  cost?: FileCostView;
  /** Main's sentence (the service no longer keeps the usage, cannot be reached…). */
  error?: string;
  retryable?: boolean;
}

class FileCosts {
  #entries = $state.raw<Record<string, FileCostEntry>>({});

  get(streamId: string): FileCostEntry | undefined {
    return this.#entries[streamId];
  }

  async load(streamId: string): Promise<void> {
    if (this.#entries[streamId]?.loading) return;
    this.#set(streamId, { loading: true });
    const r = await call('usage:stream', { streamId });
    this.#set(
      streamId,
      r.ok
        ? { loading: false, cost: r.value }
        : { loading: false, error: r.error.message, retryable: r.error.retryable },
    );
  }

  #set(streamId: string, e: FileCostEntry): void {
    this.#entries = { ...this.#entries, [streamId]: e };
  }
}

export const fileCosts = new FileCosts();
