// Tracking of streams in flight (§15.3): instead of one GET per stream and poll, each due cycle
// lists the account's READY streams once (paged, 100 a page) and reads by id only the tracked
// streams that are missing from that listing (they left READY: completed, failed or expired).
import type { StreamDto } from '../api/types.js';

/** Below this many due streams, reading each by id is cheaper than listing every READY stream. */
export const LIST_THRESHOLD = 4;

export interface TrackerPort {
  findStream(streamId: string): Promise<StreamDto>;
  /** Every READY stream of the account, all pages. */
  listReady(): Promise<StreamDto[]>;
}

export type PollOutcome = { streamId: string; stream: StreamDto } | { streamId: string; error: unknown };

/**
 * One polling cycle over the due stream ids. Results come back per stream so one failing read
 * never hides the others. When the listing itself fails, every due stream reports that error.
 */
export async function pollCycle(port: TrackerPort, due: readonly string[]): Promise<PollOutcome[]> {
  if (due.length === 0) return [];
  const byId = async (streamId: string): Promise<PollOutcome> => {
    try {
      return { streamId, stream: await port.findStream(streamId) };
    } catch (error) {
      return { streamId, error };
    }
  };
  if (due.length < LIST_THRESHOLD) return Promise.all(due.map(byId));
  let ready: Map<string, StreamDto>;
  try {
    ready = new Map((await port.listReady()).map((s) => [s.streamId, s]));
  } catch (error) {
    return due.map((streamId) => ({ streamId, error }));
  }
  const outcomes: PollOutcome[] = [];
  const missing: string[] = [];
  for (const id of due) {
    const s = ready.get(id);
    if (s) outcomes.push({ streamId: id, stream: s });
    else missing.push(id);
  }
  // A small fan-out: these are the streams that just finished, typically a handful per cycle.
  for (let i = 0; i < missing.length; i += 8) {
    outcomes.push(...(await Promise.all(missing.slice(i, i + 8).map(byId))));
  }
  return outcomes;
}
