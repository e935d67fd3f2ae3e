// Which transcript the review view shows, and where to start: Queue and History ask for one
// ("Transcript" on a completed job, or a History search hit at its moment); the review view reads it.
export interface ReviewTarget {
  jobId: string;
  /** Milliseconds into the media to show and seek to; absent: from the start. */
  atMs?: number;
}

class ReviewRequest {
  #current = $state.raw<ReviewTarget | null>(null);

  get current(): ReviewTarget | null {
    return this.#current;
  }

  open(jobId: string, atMs?: number): void {
    this.#current = atMs === undefined ? { jobId } : { jobId, atMs };
  }

  close(): void {
    this.#current = null;
  }
}

export const reviewRequest = new ReviewRequest();
