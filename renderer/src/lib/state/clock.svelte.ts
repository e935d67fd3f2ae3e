// One shared one-second tick for elapsed times, so a thousand rows do not each run a timer.
class Clock {
  #now = $state(Date.now());
  #timer: ReturnType<typeof setInterval> | null = null;
  #users = 0;

  get now(): number {
    return this.#now;
  }

  /** Call from an $effect; the returned function stops the tick when nobody needs it. */
  use(): () => void {
    this.#users += 1;
    this.#timer ??= setInterval(() => (this.#now = Date.now()), 1000);
    return () => {
      this.#users -= 1;
      if (this.#users === 0 && this.#timer) {
        clearInterval(this.#timer);
        this.#timer = null;
      }
    };
  }
}

export const clock = new Clock();
