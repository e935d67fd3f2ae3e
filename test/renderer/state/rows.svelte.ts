// A reactive list of job views for the Queue's parts under test, as the Queue state's list would be.
import type { JobState, JobView } from '../../../preload/contract.js';

export class Rows {
  list = $state.raw<JobView[]>([]);
}

/** A job view with only what the Queue's filters and selection read. */
export function row(id: string, state: JobState, folderId?: string): JobView {
  const origin = folderId ? { kind: 'watch', folderId } : { kind: 'manual' };
  return { id, state, origin, fileName: `${id}.wav`, position: 0, canMove: state === 'queued' } as unknown as JobView;
}

/** Words of a transcript that can change, as the review's view would (for the find bar). */
export class Words {
  list = $state.raw<Array<{ text: string }>>([]);

  constructor(text: string) {
    this.set(text);
  }
  set(text: string): void {
    this.list = text.split(' ').map((t) => ({ text: t }));
  }
}
