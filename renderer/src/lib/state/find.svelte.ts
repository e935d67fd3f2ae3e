// The review's find bar: what is looked for and typed in its place, the matches over every word of
// the transcript (recomputed when the words change, so a replace moves them), and which one is shown.
import { findMatches, nearestMatch, replacementsOf, type FindMatch } from './review-find';

export class FindState {
  #words: () => ReadonlyArray<{ text: string }>;
  #open = $state(false);
  #query = $state('');
  #replacement = $state('');
  /** Index into `matches` of the match shown; -1 before the first move. */
  #index = $state(-1);
  #matches: FindMatch[];

  constructor(words: () => ReadonlyArray<{ text: string }>) {
    this.#words = words;
    this.#matches = $derived(findMatches(this.#words(), this.#query));
  }

  get open(): boolean {
    return this.#open;
  }
  get query(): string {
    return this.#query;
  }
  get replacement(): string {
    return this.#replacement;
  }
  get matches(): FindMatch[] {
    return this.#matches;
  }
  get index(): number {
    return this.#index < this.#matches.length ? this.#index : -1;
  }
  /** The match shown, if any. */
  get current(): FindMatch | null {
    return this.#matches[this.index] ?? null;
  }

  show(): void {
    this.#open = true;
  }
  hide(): void {
    this.#open = false;
    this.#index = -1;
  }
  setQuery(q: string): void {
    this.#query = q;
    this.#index = -1;
  }
  setReplacement(r: string): void {
    this.#replacement = r;
  }

  /** Moves to the next (+1) or previous (-1) match, wrapping; the first move starts from `fromWord`. */
  step(delta: 1 | -1, fromWord: number): FindMatch | null {
    const n = this.#matches.length;
    if (n === 0) return null;
    if (this.index < 0) {
      const near = nearestMatch(this.#matches, Math.max(0, fromWord));
      this.#index = delta > 0 ? near : (near - 1 + n) % n;
    } else this.#index = (this.index + delta + n) % n;
    return this.current;
  }

  /** The edit that replaces every match, or null when none would change a word. */
  replaceAllEdit(): { kind: 'replaceMany'; replacements: Array<{ from: number; to: number; text: string }> } | null {
    const replacements = replacementsOf(this.#words(), this.#matches, this.#replacement);
    return replacements.length > 0 ? { kind: 'replaceMany', replacements } : null;
  }

  /** The edit that replaces the match shown (the next one is then shown where it moved). */
  replaceOneEdit(): { kind: 'replaceMany'; replacements: Array<{ from: number; to: number; text: string }> } | null {
    const m = this.current;
    if (!m) return null;
    const replacements = replacementsOf(this.#words(), [m], this.#replacement);
    return replacements.length > 0 ? { kind: 'replaceMany', replacements } : null;
  }
}
