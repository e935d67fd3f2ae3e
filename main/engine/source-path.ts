// Where a job's file is now, and where it was before.
//
// Note: a rename while logging, a move into a subfolder or a watch folder's post-action records
// the new place in `movedTo` and keeps `source.path`, the name the file was taken under (its
// stream, its claim on a share and its archived keys were made for it). Everything that looks a
// file up or names it (the path lookup, the content check, the results' links to the media, the
// name shown in the Queue and History) uses `currentPath`, so a restart, a rescan or a second
// computer finds the job under the name the file has now and never takes it for a new one.
import type { JobRecord } from './job.js';

type Placed = Pick<JobRecord, 'source' | 'movedTo' | 'sourceKind'>;

/** The job's file as it is now: where it was last moved or renamed to, else where it was taken. */
export function currentPath(job: Placed): string {
  // A link is its own identity: nothing moves it.
  if (job.sourceKind === 'link') return job.source.path;
  return job.movedTo ?? job.source.path;
}

/** The names the file had before its current one, oldest first, each once. */
export function earlierPaths(job: Placed & Pick<JobRecord, 'movedFrom'>): string[] {
  const now = currentPath(job);
  const seen = new Set<string>([now]);
  const out: string[] = [];
  for (const p of [job.source.path, ...(job.movedFrom ?? [])]) {
    if (seen.has(p)) continue;
    seen.add(p);
    out.push(p);
  }
  return out;
}

/** The places a moved file had between its first and its current one, after moving to `to`. */
export function movedFromAfter(job: Pick<JobRecord, 'source' | 'movedTo' | 'movedFrom'>, to: string): string[] {
  const was = job.movedFrom ?? [];
  return job.movedTo === undefined || job.movedTo === to || job.movedTo === job.source.path
    ? [...was]
    : [...was, job.movedTo];
}
