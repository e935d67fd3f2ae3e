// Media lengths for the batch estimate, read from the files themselves (the media probe reads the
// container's headers, not the whole file). A few at a time, once per job, remembered in memory.
import { probeMediaFacts } from '../../media/probe.js';

export type DurationProbe = (path: string) => Promise<number | undefined>;

/** The file's duration in ms; undefined when it is not media the probe knows, or is gone. */
export const probeDuration: DurationProbe = async (path) => {
  try {
    return (await probeMediaFacts(path)).durationMs ?? undefined;
  } catch {
    return undefined;
  }
};

export class MediaDurations {
  private readonly known = new Map<string, number | null>();
  private readonly waiting: Array<{ id: string; path: string }> = [];
  private running = 0;

  constructor(
    private readonly probe: DurationProbe = probeDuration,
    private readonly parallel = 2,
    /** Called when a length becomes known, so the numbers can be sent again. */
    private readonly onKnown: () => void = () => undefined,
  ) {}

  /** The job's media length when measured; asks for it otherwise (undefined meanwhile). */
  of(id: string, path: string): number | undefined {
    const v = this.known.get(id);
    if (v === undefined) this.request(id, path);
    return v ?? undefined;
  }

  forget(id: string): void {
    this.known.delete(id);
  }

  private request(id: string, path: string): void {
    this.known.set(id, null);
    this.waiting.push({ id, path });
    this.pump();
  }

  private pump(): void {
    while (this.running < this.parallel && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.running += 1;
      void this.probe(next.path)
        .then((ms) => {
          if (ms !== undefined && this.known.has(next.id)) {
            this.known.set(next.id, ms);
            this.onKnown();
          }
        })
        .catch(() => undefined)
        .finally(() => {
          this.running -= 1;
          this.pump();
        });
    }
  }
}
