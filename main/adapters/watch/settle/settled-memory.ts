// What earlier looks at a file found while it stays unchanged: since when a whole file that only
// time can vouch for has been unchanged, and since when one that is not whole has been. A file not
// whole and unchanged for `incompleteAfterMs` (a camera that stopped mid-recording: no `moov`) is
// said so once, with what is wrong, instead of waiting for ever as a copy in progress.
import { neverWholeWords } from '../../../engine/container-whole.js';
import { lookSettled, type SettledLook, type SettledLookInput } from './settled-look.js';

/** How long a file may stay unchanged and not whole before it is said never to be whole. */
export const DEFAULT_INCOMPLETE_AFTER_MS = 180_000;

export class SettledMemory {
  /** Whole, but only time can tell: unchanged (size:mtime) since. */
  private readonly unchanged = new Map<string, { key: string; since: number }>();
  /** Not whole: unchanged since, and whether that was said. */
  private readonly incomplete = new Map<string, { key: string; since: number; told: boolean }>();

  constructor(private readonly o: { now: () => number; incompleteAfterMs?: number }) {}

  /** Looks at the settled file; `told`: the words to say, once, now that it has stayed not whole long enough. */
  async look(key: string, input: Omit<SettledLookInput, 'unchangedSince'>): Promise<SettledLook & { told?: string }> {
    const p = input.path;
    const was = this.unchanged.get(p);
    const look = await lookSettled({ ...input, ...(was?.key === key ? { unchangedSince: was.since } : {}) });
    if (look.wholeSince !== undefined) this.unchanged.set(p, { key, since: look.wholeSince });
    else this.unchanged.delete(p);
    if (look.notWhole === undefined) {
      this.incomplete.delete(p);
      return look;
    }
    const now = this.o.now();
    let seen = this.incomplete.get(p);
    if (seen?.key !== key) this.incomplete.set(p, (seen = { key, since: now, told: false }));
    if (seen.told || now - seen.since < (this.o.incompleteAfterMs ?? DEFAULT_INCOMPLETE_AFTER_MS)) return look;
    seen.told = true;
    return { ...look, told: neverWholeWords(p, look.notWhole, now - seen.since) };
  }

  /** Said never to be whole as it is now: no longer shown as a copy that goes on. */
  told(p: string, key: string): boolean {
    const seen = this.incomplete.get(p);
    return seen?.told === true && seen.key === key;
  }

  /**
   * Retry: the next look at the file says it again at once if it is still not whole (it has been
   * unchanged that long already), and a whole one is taken as any other.
   */
  again(p: string): void {
    const seen = this.incomplete.get(p);
    if (seen) seen.told = false;
  }

  forget(p: string): void {
    this.unchanged.delete(p);
    this.incomplete.delete(p);
  }

  forgetWhere(inside: (p: string) => boolean): void {
    for (const p of this.unchanged.keys()) if (inside(p)) this.unchanged.delete(p);
    for (const p of this.incomplete.keys()) if (inside(p)) this.incomplete.delete(p);
  }

  clear(): void {
    this.unchanged.clear();
    this.incomplete.clear();
  }
}
