// Content identity carried out: the job that already holds a file's bytes under another name (in
// the journal, or archived long ago), and a renamed finished file taking its results along to
// wherever results now go (beside it, or in its watch folder's output folder).
import { rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { mkdirBelow } from '../watch/folder/folder-root.js';
import {
  classifyByContent,
  followedResultName,
  type ContentTwin,
  type FileIdentity,
} from '../../engine/file-identity.js';
import { isTerminal, type JobEvent, type JobRecord, type ResultFile, type ResultPlace } from '../../engine/job.js';
import { currentPath } from '../../engine/source-path.js';
import type { JobStore } from '../store/journal/job-store.js';
import { latestByContent } from '../store/journal/jobs.js';
import { resultAnchor } from '../results/link-destination.js';

export interface ContentTwinsDeps {
  store: JobStore<JobRecord>;
  apply: (id: string, event: JobEvent) => JobRecord | undefined;
}

export type ContentTake = { outcome: 'already-done' | 'already-queued'; job: JobRecord };

export class ContentTwins {
  /** Newest job per content hash among the journal's jobs; built on first use. */
  private index: Map<string, string> | undefined;

  constructor(private readonly d: ContentTwinsDeps) {}

  private get contents(): Map<string, string> {
    if (!this.index) {
      const byHash = new Map<string, JobRecord>();
      for (const j of this.d.store.all()) {
        const h = j.source.contentHash;
        const prev = h ? byHash.get(h) : undefined;
        if (h && (!prev || j.createdAt > prev.createdAt)) byHash.set(h, j);
      }
      this.index = new Map([...byHash].map(([h, j]) => [h, j.id]));
    }
    return this.index;
  }

  /** A new job holds these bytes now. */
  remember(contentHash: string, jobId: string): void {
    this.contents.set(contentHash, jobId);
  }

  /** The job holding these bytes: the journal's newest, or the archive's when newer there. */
  private twinJob(identity: FileIdentity): JobRecord | undefined {
    const h = identity.contentHash;
    if (!h) return undefined;
    const id = this.contents.get(h);
    return latestByContent(this.d.store, h, id ? this.d.store.get(id) : undefined);
  }

  /** The job holding these bytes under another name, as the content decision needs it. */
  private async twin(identity: FileIdentity): Promise<ContentTwin | undefined> {
    const job = this.twinJob(identity);
    if (!job) return undefined;
    const where = currentPath(job);
    const there = await stat(where).catch(() => undefined);
    const state = job.state === 'completed' ? 'completed' : isTerminal(job.state) ? 'ended' : 'active';
    return {
      jobId: job.id,
      source: job.source,
      path: where,
      state,
      stillThere: there?.isFile() === true && there.size === job.source.size,
    };
  }

  /**
   * The same bytes under a new name: one job. A finished file that was renamed or moved takes its
   * results along, each renamed after the new name where results go now (`place`: the watch
   * folder's output folder; beside the file when empty), unless a file is already there.
   */
  async take(file: string, identity: FileIdentity, place: ResultPlace): Promise<ContentTake | undefined> {
    const decision = classifyByContent(identity, await this.twin(identity));
    if (decision.kind === 'none') return undefined;
    const job = this.d.store.get(decision.jobId)!;
    if (decision.kind === 'same-job')
      return { outcome: isTerminal(job.state) ? 'already-done' : 'already-queued', job };
    const oldBase = path.basename(currentPath(job));
    const oldDir = path.dirname(resultAnchor(job));
    const moved: JobRecord = { ...job, movedTo: file, ...place };
    if (!place.resultsDir) delete moved.resultsDir;
    if (!place.resultsBelow) delete moved.resultsBelow;
    const newDir = path.dirname(resultAnchor(moved));
    const results: ResultFile[] = [];
    for (const r of job.results) {
      const name = followedResultName(oldBase, path.basename(file), path.basename(r.path));
      // A result in a subfolder of the pattern (Transcripts/) keeps its place under the new folder.
      const sub = path.relative(oldDir, path.dirname(r.path));
      const keep = sub.startsWith('..') || path.isAbsolute(sub) ? '' : sub;
      const to = name === null ? undefined : path.join(newDir, keep, name);
      results.push(to !== undefined && (await moveIfFree(r.path, to, newDir)) ? { ...r, path: to } : r);
    }
    const updated = this.d.apply(job.id, { type: 'sourceMoved', movedTo: file, results, place });
    return { outcome: 'already-done', job: updated ?? job };
  }
}

async function moveIfFree(from: string, to: string, base: string): Promise<boolean> {
  if ((await stat(to).catch(() => undefined)) !== undefined) return false;
  try {
    await mkdirBelow(base, path.dirname(to));
    await rename(from, to);
    return true;
  } catch {
    return false;
  }
}
