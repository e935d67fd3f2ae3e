// Which transcript the review view shows, and where to start: Queue and History ask for one
// ("Transcript" on a completed job, or a History search hit at its moment); the review view reads it.
// The review belongs to the screen it was opened over: going to another screen puts it aside, and
// coming back to that screen shows it again, where it was left (the file, the paragraph at the top
// of the list, the playhead, paused). That memory lives in this window for as long as it is open; a
// restart (or reloading the browser tab) starts a new window, on the Queue, with nothing open.
import { app, type Screen } from './app.svelte';

export interface ReviewTarget {
  jobId: string;
  /** Milliseconds into the media to show and seek to; absent: from the start. */
  atMs?: number;
}

/** Where the editor left a transcript. */
export interface ReviewPlace {
  /** The playhead. */
  timeMs: number;
  /** The paragraph at the top of the list, and how many pixels of it are scrolled past. */
  paragraph: number;
  offset: number;
  /** The list was following playback (not scrolled away by hand). */
  following: boolean;
  /** The playback speed chosen. */
  rate: number;
}

export type PlayerSize = 'normal' | 'large';

class ReviewRequest {
  #open = $state.raw<{ target: ReviewTarget; screen: Screen } | null>(null);
  /** Per job: the place it was left, and the request it was left under. */
  #places = new Map<string, { place: ReviewPlace; target: ReviewTarget }>();
  #playerSize = $state<PlayerSize>('normal');

  /** The transcript to show over the screen on show: the one opened over it, if any. */
  get current(): ReviewTarget | null {
    const open = this.#open;
    return open && open.screen === app.screen ? open.target : null;
  }

  /** The screen a transcript is open over, shown or put aside; null when none is open. */
  get openOver(): Screen | null {
    return this.#open?.screen ?? null;
  }

  open(jobId: string, atMs?: number): void {
    this.#open = { target: atMs === undefined ? { jobId } : { jobId, atMs }, screen: app.screen };
  }

  close(): void {
    this.#open = null;
  }

  /** Keeps where the editor was in a transcript, for the next time it shows. */
  remember(target: ReviewTarget, place: ReviewPlace): void {
    this.#places.set(target.jobId, { place, target });
  }

  /**
   * Where to start `target`: where it was left, unless it asks for a moment of its own (a search
   * hit) that was not left since.
   */
  placeFor(target: ReviewTarget): ReviewPlace | undefined {
    const kept = this.#places.get(target.jobId);
    if (!kept) return undefined;
    return target.atMs === undefined || kept.target === target ? kept.place : undefined;
  }

  /** The video player's size, kept from one transcript to the next. */
  get playerSize(): PlayerSize {
    return this.#playerSize;
  }
  setPlayerSize(size: PlayerSize): void {
    this.#playerSize = size;
  }
}

export const reviewRequest = new ReviewRequest();
