// The currencies the service prices usage in, asked of main once (it asks the service, and keeps the
// answer a day) and again when the connection changes. Usage and Settings both read this one list.
import { call, on } from '../api';

class PricedCurrencies {
  /** Null until the service answered. */
  #codes = $state<string[] | null>(null);
  #error = $state<string | null>(null);
  #asking: Promise<void> | null = null;
  #following = false;

  get codes(): string[] | null {
    return this.#codes;
  }
  /** Why the list could not be had (offline, no key); the saved choice is still shown. */
  get error(): string | null {
    return this.#error;
  }

  /** Asks once; a failed ask is asked again by the next caller. */
  load(): Promise<void> {
    if (!this.#following) {
      this.#following = true;
      on('connection:changed', () => {
        this.#asking = null;
        void this.load();
      });
    }
    this.#asking ??= (async () => {
      const r = await call('usage:currencies');
      if (r.ok) {
        this.#codes = r.value.codes;
        this.#error = null;
      } else {
        this.#error = r.error.message;
        this.#asking = null;
      }
    })();
    return this.#asking;
  }
}

export const pricedCurrencies = new PricedCurrencies();
