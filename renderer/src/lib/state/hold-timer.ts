// The string-out player's hold: a gap or title card held for its length, the time left counted
// down for the screen, then done. The clock is injected (the tests advance a fake one); one hold
// at a time: a new start or a stop ends the last one, and neither callback fires after it. Pure.

export interface HoldClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: HoldClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** How often the time left is told while a hold lasts. */
export const HOLD_TICK_MS = 100;

export class HoldTimer {
  readonly #clock: HoldClock;
  #handle: unknown = null;

  constructor(clock: HoldClock = realClock) {
    this.#clock = clock;
  }

  /** Whether a hold is counting down. */
  get running(): boolean {
    return this.#handle !== null;
  }

  /** Holds `ms`: `left` with the time left now and every HOLD_TICK_MS, then `done` at its end. */
  start(ms: number, left: (ms: number) => void, done: () => void): void {
    this.stop();
    const end = this.#clock.now() + ms;
    const tick = (): void => {
      const rest = Math.max(0, end - this.#clock.now());
      if (rest <= 0) {
        this.#handle = null;
        left(0);
        done();
        return;
      }
      left(rest);
      this.#handle = this.#clock.setTimeout(tick, Math.min(HOLD_TICK_MS, rest));
    };
    tick();
  }

  /** Ends the hold where it is: no more callbacks. */
  stop(): void {
    if (this.#handle !== null) this.#clock.clearTimeout(this.#handle);
    this.#handle = null;
  }
}

/** The time left as the player says it: `2.4 s`, counted up to the next tenth. */
export const holdLeftText = (ms: number): string => `${(Math.ceil(ms / 100) / 10).toFixed(1)} s`;
