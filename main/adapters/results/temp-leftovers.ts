// Temporary files whose removal failed: a folder that refused writes for a moment (a share made
// read-only, a permission changed) left `.NAME.json.<tag>.sluice-tmp` beside the source, which
// nothing else would ever remove (reliability-2026-12, defect 3). They are tried again when a
// folder comes back or takes writes again, and at the next successful write.
import { unlink } from 'node:fs/promises';

const leftovers = new Set<string>();
/**
 * Temporary files a write has under way, by how many writes hold each: a sweep leaves them alone.
 * A writer's names are fixed (its job's tag), so a sweep started by another write could otherwise
 * remove the file a write had just made under a leftover's name, and its rename would fail.
 */
const inUse = new Map<string, number>();

/** Marks temporary files as a write's own until the answer is called; a sweep passes them by. */
export function claimTemps(paths: readonly string[]): () => void {
  for (const p of paths) inUse.set(p, (inUse.get(p) ?? 0) + 1);
  return () => {
    for (const p of paths) {
      const n = (inUse.get(p) ?? 1) - 1;
      if (n > 0) inUse.set(p, n);
      else inUse.delete(p);
    }
  };
}

/** Removes a temporary file; one that cannot go now is remembered and tried again later. */
export async function removeTemp(p: string): Promise<void> {
  await unlink(p).then(
    () => leftovers.delete(p),
    (e: unknown) => {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') leftovers.delete(p);
      else leftovers.add(p);
    },
  );
}

/** Tries again every temporary file left behind; answers how many went. */
export async function sweepLeftoverTemps(): Promise<number> {
  let removed = 0;
  for (const p of [...leftovers]) {
    if (inUse.has(p)) continue;
    await removeTemp(p);
    if (!leftovers.has(p)) removed++;
  }
  return removed;
}

/** The temporary files still waiting to be removed (what a screen or a test may ask). */
export function leftoverTemps(): string[] {
  return [...leftovers];
}
