// Which currencies the service prices usage in (walkthrough S3-13). The contract publishes no list
// (§7.4 GAP): a usage report asked in a currency the service does not price is refused with
// CURRENCY_ERROR, and one it prices comes back with `currency` set. So the list is the service's
// own answers: one small report (the last hour, one bucket) per ISO 4217 code, a few at a time,
// asked once per connection and kept for a day. The sandbox answers as the service does.
import { isServiceError } from '../service/errors.js';

export interface PricedCurrencies {
  /** Upper-case ISO 4217 codes the service priced a report in, sorted. */
  codes: string[];
  /** When the service was asked (epoch ms). */
  checkedAt: number;
}

export interface CurrencyProbe {
  /** Asks the service for a report in `code`: resolves when it priced it, rejects with its refusal. */
  report(code: string): Promise<unknown>;
  now(): number;
  /** The codes to ask about (default: every ISO 4217 code the runtime knows). */
  candidates?: readonly string[];
  /** Reports asked at once (default 6). */
  concurrency?: number;
}

/** How long an answer is kept before the service is asked again. */
export const PRICED_CURRENCIES_TTL_MS = 24 * 3600_000;

export class PricedCurrencyList {
  private answer: Promise<PricedCurrencies> | undefined;
  private answeredAt = 0;

  constructor(private readonly probe: CurrencyProbe) {}

  /** The service's list, asked at most once a day; a failed ask (offline, no key) is asked again next time. */
  list(): Promise<PricedCurrencies> {
    const fresh = this.answer && this.probe.now() - this.answeredAt < PRICED_CURRENCIES_TTL_MS;
    if (!fresh) {
      this.answeredAt = this.probe.now();
      const asked = this.ask();
      this.answer = asked;
      asked.catch(() => {
        if (this.answer === asked) this.answer = undefined;
      });
    }
    return this.answer!;
  }

  private async ask(): Promise<PricedCurrencies> {
    const queue = [...(this.probe.candidates ?? Intl.supportedValuesOf('currency'))];
    const priced: string[] = [];
    const worker = async (): Promise<void> => {
      for (let code = queue.shift(); code !== undefined; code = queue.shift()) {
        try {
          await this.probe.report(code);
          priced.push(code);
        } catch (e) {
          // Refused for the currency: not priced. Anything else (offline, no key) says nothing.
          if (!(isServiceError(e) && e.internalErrorName === 'CURRENCY_ERROR')) {
            queue.length = 0;
            throw e;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: this.probe.concurrency ?? 6 }, worker));
    return { codes: priced.sort(), checkedAt: this.probe.now() };
  }
}
