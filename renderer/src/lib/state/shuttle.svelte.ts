// J/K/L over the review's media element, as in an NLE: L plays forward and each L again doubles
// the speed (1×, 2×, 4×), J the same backwards, K stops, and with K held J/L nudge one frame.
// Forward is the element's own playback. Backwards cannot be: Chromium's media elements refuse a
// negative playbackRate (NotSupportedError), so reverse is played by seeking back in real time,
// one seek each frame as fast as the element answers: the picture runs backwards at 1×, 2× or 4×,
// without sound.

/** What the shuttle needs of an HTMLMediaElement (tests pass a fake). */
export interface ShuttleMedia extends EventTarget {
  currentTime: number;
  playbackRate: number;
  readonly paused: boolean;
  readonly seeking: boolean;
  readonly duration: number;
  play(): Promise<void> | void;
  pause(): void;
}

export type ShuttleDirection = 'stopped' | 'forward' | 'reverse';
export interface ShuttleMotion {
  direction: ShuttleDirection;
  speed: number;
}

export const SHUTTLE_SPEEDS = [1, 2, 4] as const;

/** The motion after J or L: the same way again doubles (up to 4×), the other way starts at 1×. */
export function nextMotion(now: ShuttleMotion, way: 'forward' | 'reverse'): ShuttleMotion {
  if (now.direction !== way) return { direction: way, speed: 1 };
  const faster = SHUTTLE_SPEEDS.find((s) => s > now.speed) ?? 4;
  return { direction: way, speed: faster };
}

/** One frame on the file's timeline when Sluice knows its rate; else a 25 fps frame, or 0.1 s of audio. */
export function nudgeSeconds(kind: 'audio' | 'video', frameRate?: { num: number; den: number }): number {
  if (frameRate && frameRate.num > 0 && frameRate.den > 0) return frameRate.den / frameRate.num;
  return kind === 'video' ? 1 / 25 : 0.1;
}

export class Shuttle {
  #direction = $state<ShuttleDirection>('stopped');
  #speed = $state(1);
  #media: ShuttleMedia | null = null;
  /** The rate chosen in Speed before L changed it: K gives it back, so Space plays at it again. */
  #base: number | null = null;
  #raf = 0;
  /** Reverse runs from `from` seconds at the moment `since` (ms on `#now`). */
  #anchor = { from: 0, since: 0 };
  #now: () => number;
  #detach: () => void = () => undefined;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  get direction(): ShuttleDirection {
    return this.#direction;
  }
  get speed(): number {
    return this.#speed;
  }

  /** The element to drive (null when the player goes); what it does by its own controls wins. */
  attach(media: ShuttleMedia | null): void {
    this.#stopReverse();
    this.#detach();
    this.#media = media;
    this.#direction = 'stopped';
    this.#speed = 1;
    this.#base = null;
    if (!media) return;
    const onplay = (): void => {
      // Play pressed on the controls (or Space) while running backwards: forward it is.
      if (this.#direction === 'reverse') this.#settle('stopped');
    };
    const onpause = (): void => {
      if (this.#direction === 'forward') this.#settle('stopped');
    };
    media.addEventListener('play', onplay);
    media.addEventListener('pause', onpause);
    this.#detach = () => {
      media.removeEventListener('play', onplay);
      media.removeEventListener('pause', onpause);
    };
  }

  /** J (reverse) or L (forward). */
  press(way: 'forward' | 'reverse'): void {
    const m = this.#media;
    if (!m) return;
    // Playing already (Space) counts as forward at 1×: L then goes to 2×.
    const now: ShuttleMotion =
      this.#direction === 'stopped' && !m.paused ? { direction: 'forward', speed: 1 } : this.motion;
    const next = nextMotion(now, way);
    this.#base ??= m.playbackRate;
    this.#direction = next.direction;
    this.#speed = next.speed;
    if (way === 'forward') {
      this.#stopReverse();
      m.playbackRate = next.speed;
      void Promise.resolve(m.play()).catch(() => this.#settle('stopped'));
      return;
    }
    m.pause();
    this.#anchor = { from: m.currentTime, since: this.#now() };
    if (this.#raf === 0) this.#raf = requestAnimationFrame(this.#frame);
  }

  get motion(): ShuttleMotion {
    return { direction: this.#direction, speed: this.#speed };
  }

  /** K: stops either way, and the speed chosen before J/L is back. */
  pause(): void {
    this.#media?.pause();
    this.#settle('stopped');
  }

  /** Hold K and tap J or L: stopped, then `seconds` on (negative: back), within the media. */
  nudge(seconds: number): void {
    const m = this.#media;
    if (!m) return;
    this.pause();
    const end = Number.isFinite(m.duration) ? m.duration : Infinity;
    m.currentTime = Math.min(end, Math.max(0, m.currentTime + seconds));
  }

  /** Stops driving the element (the review closing). */
  dispose(): void {
    this.attach(null);
  }

  #frame = (): void => {
    this.#raf = 0;
    const m = this.#media;
    if (!m || this.#direction !== 'reverse') return;
    // One seek at a time: asking again before the last landed only queues work for the decoder.
    if (!m.seeking) {
      const t = this.#anchor.from - ((this.#now() - this.#anchor.since) / 1000) * this.#speed;
      m.currentTime = Math.max(0, t);
      if (t <= 0) {
        this.#settle('stopped');
        return;
      }
    }
    this.#raf = requestAnimationFrame(this.#frame);
  };

  #stopReverse(): void {
    if (this.#raf !== 0) cancelAnimationFrame(this.#raf);
    this.#raf = 0;
  }

  #settle(direction: 'stopped'): void {
    this.#stopReverse();
    this.#direction = direction;
    this.#speed = 1;
    if (this.#media && this.#base !== null) this.#media.playbackRate = this.#base;
    this.#base = null;
  }
}
