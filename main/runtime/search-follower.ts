// The transcript search index follows the jobs on its own: it listens to the engine's events and
// updates itself as a job completes or a transcript is corrected. The runtime only starts it and
// waits for it at close; nothing calls into the index for it.
import type { TranscriptIndex } from '../adapters/store/search/transcript-index.js';
import type { EngineEvent } from '../engine/events.js';
import type { EventSource } from './services.js';

export class SearchFollower {
  /** Index updates under way (awaited by `settled`). */
  private readonly indexing = new Set<Promise<void>>();
  private readonly off: () => void;

  constructor(
    private readonly index: Pick<TranscriptIndex, 'update'>,
    events: EventSource,
  ) {
    this.off = events.on((e) => this.onEvent(e));
  }

  private onEvent(e: EngineEvent): void {
    const id =
      e.type === 'transcript:changed'
        ? e.jobId
        : e.type === 'job:updated' && e.job.state === 'completed'
          ? e.job.id
          : '';
    if (!id) return;
    // A no-op when unchanged; a failure leaves the index as it was, searched as before.
    const p: Promise<void> = this.index
      .update(id)
      .catch(() => undefined)
      .finally(() => this.indexing.delete(p));
    this.indexing.add(p);
  }

  /** Stops following; resolves once the updates under way are written. */
  async settled(): Promise<void> {
    this.off();
    while (this.indexing.size > 0) await Promise.all([...this.indexing]);
  }
}
