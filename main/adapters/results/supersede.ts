// A re-run replaces the whole set of results an earlier run wrote: once the new run's files are in
// place, the earlier run's files it did not write again (an SRT with speaker labels the new
// template has no more) are removed, so no mixed set stays beside the source. Only files still
// exactly as Sluice wrote them go (the same stamp rule as overwriting, result-writer.ts); a file
// edited since, or one Sluice never wrote, stays.
import { stat, unlink } from 'node:fs/promises';
import type { ResultFile } from '../../engine/job.js';

/** Removes `earlier` files that `fresh` did not replace; answers the earlier files still there. */
export async function removeSuperseded(
  earlier: readonly ResultFile[],
  fresh: readonly ResultFile[],
): Promise<ResultFile[]> {
  const rewritten = new Set(fresh.map((r) => r.path));
  const kept: ResultFile[] = [];
  for (const r of earlier) {
    if (rewritten.has(r.path)) continue;
    const now = await stat(r.path).catch(() => undefined);
    if (!now) continue;
    const unchanged =
      r.writtenBySluice &&
      r.size === now.size &&
      r.mtimeMs !== undefined &&
      Math.floor(r.mtimeMs) === Math.floor(now.mtimeMs);
    if (
      unchanged &&
      (await unlink(r.path).then(
        () => true,
        () => false,
      ))
    )
      continue;
    kept.push(r);
  }
  return kept;
}
