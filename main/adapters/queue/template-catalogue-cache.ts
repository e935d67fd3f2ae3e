// The account's template catalogue (§13), read through the client (every page) and kept for a
// while; when the configuration service is unreachable or refuses, the last catalogue known (at
// first the public templates Sluice ships) stays in use and carries the reason.
import { BUILTIN_CATALOGUE, mergeCatalogue, type TemplateCatalogue } from '../../service/template-catalogue.js';
import type { StreamConfigurationTemplateDto } from '../../service/types.js';

export interface TemplateCatalogueOptions {
  /** How long a catalogue read from the service is used before it is read again. */
  ttlMs?: number;
  /** How soon a failed read is tried again. */
  retryMs?: number;
  now?: () => number;
}

export class TemplateCatalogueCache {
  #current: TemplateCatalogue = BUILTIN_CATALOGUE;
  #validUntil = 0;
  #pending: Promise<TemplateCatalogue> | undefined;
  readonly #ttlMs: number;
  readonly #retryMs: number;
  readonly #now: () => number;

  constructor(
    private readonly list: () => AsyncIterable<StreamConfigurationTemplateDto>,
    opts: TemplateCatalogueOptions = {},
  ) {
    this.#ttlMs = opts.ttlMs ?? 5 * 60_000;
    this.#retryMs = opts.retryMs ?? 30_000;
    this.#now = opts.now ?? Date.now;
  }

  /** What is known now, without waiting for the service. */
  get current(): TemplateCatalogue {
    return this.#current;
  }

  /** The catalogue, read again when stale (or when `refresh`); never throws. */
  get(opts: { refresh?: boolean } = {}): Promise<TemplateCatalogue> {
    if (!opts.refresh && this.#now() < this.#validUntil) return Promise.resolve(this.#current);
    this.#pending ??= this.#load().finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  /** Another connection: the next `get` reads the new account's list. */
  invalidate(): void {
    this.#validUntil = 0;
  }

  async #load(): Promise<TemplateCatalogue> {
    try {
      const all: StreamConfigurationTemplateDto[] = [];
      for await (const t of this.list()) all.push(t);
      this.#current = mergeCatalogue(all);
      this.#validUntil = this.#now() + this.#ttlMs;
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      this.#current = { ...this.#current, problem: reason };
      this.#validUntil = this.#now() + this.#retryMs;
    }
    return this.#current;
  }
}
