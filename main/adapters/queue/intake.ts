// Turns files into jobs: by hand (files or folders the user adds) and from watch folders. The
// identity rule decides whether a file is new, already taken, or changed (engine/file-identity.ts):
// a restart, a rescan or a duplicate event never queues the same content twice.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { addOutcome } from '../../engine/add-outcome.js';
import { classifyDetected, type FileIdentity } from '../../engine/file-identity.js';
import { createJob, isTerminal, type JobOrigin, type JobRecord } from '../../engine/job.js';
import { resultPlaceFor } from '../results/link-destination.js';
import { ContentTwins } from './content-twin.js';
import type { KnownAs } from '../../engine/rescan-summary.js';
import { cardSkip } from './card-skip.js';
import { checkMediaLink } from '../../engine/media-link.js';
import { absorbsSourceChange } from '../../engine/reducer-source.js';
import type { Settings, WatchFolder } from '../../engine/settings.js';
import { recipeParams } from '../../engine/recipes/recipe-params.js';
import { manualAdd } from '../../engine/manual-add.js';
import type { JobStore } from '../store/journal/job-store.js';
import { latestBySource } from '../store/journal/jobs.js';
import { currentPath } from '../../engine/source-path.js';
import { fingerprintFile, hashFile } from './fingerprint.js';
import { checkHandMedia } from './intake-media.js';
import { ineligible } from '../../../common/media-files.js';
import { walkMedia } from './media-walk.js';
import type { QueueRunner } from './queue-runner.js';
import type { SharedFolders } from '../claims/shared-folders.js';
import type { AddOptions, AddOutcome, ConsiderOptions, LinkOptions } from './intake-types.js';

export type { AddOptions, AddOutcome } from './intake-types.js';
export { jobIds } from './intake-types.js';

export class Intake {
  /** Latest job per current path (source-path.ts) among the journal's jobs (the archive has its own index); built on first use. */
  private knownIndex: Map<string, JobRecord> | undefined;
  private seqMax = 0;
  private readonly deciding = new Map<string, Promise<AddOutcome>>();
  private readonly twins: ContentTwins;

  constructor(
    private readonly store: JobStore<JobRecord>,
    private readonly runner: QueueRunner,
    private readonly settings: () => Settings,
    private readonly claims?: SharedFolders,
  ) {
    this.twins = new ContentTwins({ store, apply: (id, e) => runner.apply(id, e) });
  }

  private get known(): Map<string, JobRecord> {
    if (!this.knownIndex) {
      const known = new Map<string, JobRecord>();
      // One pass, no sort: the newest job per path wins.
      for (const j of this.store.all()) {
        const at = currentPath(j);
        const prev = known.get(at);
        if (!prev || j.createdAt > prev.createdAt || (j.createdAt === prev.createdAt && j.seq > prev.seq)) {
          known.set(at, j);
        }
        if (j.seq > this.seqMax) this.seqMax = j.seq;
      }
      this.knownIndex = known;
    }
    return this.knownIndex;
  }

  /**
   * The newest job for a path: from the journal's jobs, or the archive's index when newer there.
   * As the job is now: the index keeps the record it was added with, and a job that took the
   * finished copy of a stalled file has that file's size and time since (read from the store).
   */
  private latest(file: string): JobRecord | undefined {
    const entry = this.known.get(file);
    const hot = entry && (this.store.get(entry.id) ?? entry);
    // Moved away since it was indexed here (a rename, a post-action): no longer this path's job.
    return latestBySource(this.store, file, hot && currentPath(hot) === file ? hot : undefined);
  }

  /**
   * Whether a watch folder's settled file would be fingerprinted here: its watcher then reads the
   * fingerprint through the handle it already holds and hands it in with the file.
   */
  fingerprintWanted(file: { path: string; size: number; mtimeMs: number }): boolean {
    const q = this.settings().queue;
    if (!q.hashContent || q.fullHash) return false;
    return !asTaken(file, this.latest(file.path), { force: false });
  }

  /** What the history already holds of this file as it is now (Rescan's summary). */
  knownAs(file: { path: string; size: number; mtimeMs: number }): KnownAs {
    const known = this.latest(file.path);
    if (!known) return 'new';
    const decision = classifyDetected(file, { jobId: known.id, source: known.source });
    if (decision.kind !== 'unchanged') return 'new';
    const current = this.store.get(known.id) ?? known;
    return isTerminal(current.state) ? 'done' : 'queued';
  }

  async addManual(paths: readonly string[], opts: AddOptions): Promise<AddOutcome[]> {
    const out: AddOutcome[] = [];
    for (const p of paths) {
      const abs = path.resolve(p);
      const st = await stat(abs).catch((e: NodeJS.ErrnoException) => e);
      if (st instanceof Error) {
        out.push({ path: abs, outcome: 'rejected', message: describeStatError(abs, st) });
        continue;
      }
      const { files, problems } = st.isDirectory() ? await walkMedia(abs) : { files: [abs], problems: [] };
      for (const p of problems) out.push({ path: p.path, outcome: 'rejected', message: p.message });
      if (st.isDirectory() && files.length === 0 && problems.length === 0) {
        out.push({ path: abs, outcome: 'rejected', message: `${abs} holds no audio or video files.` });
      }
      for (const f of files) {
        out.push(
          await this.consider(
            f,
            { kind: 'manual' },
            {
              ...this.manualOptions(opts),
              ...(opts.replaces ? { replaces: opts.replaces } : {}),
              ...(opts.place ? { place: opts.place } : {}),
              // A card folder added by hand is a card too: its proxies and a take's single inputs
              // are skipped as in a watch folder. A file chosen by name is taken as asked.
              ...(st.isDirectory() ? { cards: { root: abs, tracks: 'mix' as const } } : {}),
            },
          ),
        );
      }
    }
    return out;
  }

  /**
   * Media links (§4.4 b), queued like files: a link is the same job as long as its text is the
   * same, so one already processed is not processed again unless `force` says so.
   */
  async addLinks(links: readonly string[], opts: LinkOptions): Promise<AddOutcome[]> {
    const out: AddOutcome[] = [];
    // A link pasted twice is one job: the second is said to be queued already, not counted twice.
    const seen = new Map<string, string>();
    for (const link of links) {
      const checked = checkMediaLink(link);
      if (!checked.ok) {
        out.push({ path: link, outcome: 'rejected', message: checked.message });
        continue;
      }
      const url = checked.url;
      const first = seen.get(url);
      if (first !== undefined) {
        out.push({ path: url, outcome: 'already-queued', jobId: first });
        continue;
      }
      const outcome = await this.consider(
        url,
        { kind: 'manual' },
        {
          ...this.manualOptions(opts),
          identity: { path: url, size: Buffer.byteLength(url, 'utf8'), mtimeMs: 0 },
          link: { resultsDir: opts.resultsDir },
        },
      );
      if (outcome.outcome !== 'rejected') seen.set(url, outcome.jobId);
      out.push(outcome);
    }
    return out;
  }

  /** Added by hand (files or links): as given, Settings' for the rest (engine/manual-add.ts); a failed one is retried. */
  private manualOptions(opts: AddOptions): ConsiderOptions {
    const add = manualAdd(this.settings(), opts);
    return {
      templateId: add.templateId,
      params: add.sent,
      output: add.output,
      force: opts.force ?? false,
      retryFailed: true,
    };
  }

  /** One origin per folder, shared by its jobs (never changed in place), not one per file. */
  private readonly origins = new Map<string, JobOrigin>();

  private watchOrigin(folderId: string): JobOrigin {
    let o = this.origins.get(folderId);
    if (!o) this.origins.set(folderId, (o = Object.freeze({ kind: 'watch' as const, folderId })));
    return o;
  }

  /** A complete file reported by a watch folder. Failed files are not retried automatically. */
  async addDetected(
    folder: WatchFolder,
    file: { path: string; size: number; mtimeMs: number; contentHash?: string },
  ): Promise<AddOutcome> {
    return this.consider(file.path, this.watchOrigin(folder.id), {
      templateId: folder.templateId,
      params: recipeParams(folder.params, folder.recipe, folder.glossary, this.settings().customRecipes).params,
      output: folder.output,
      force: false,
      retryFailed: false,
      identity: {
        path: file.path,
        size: file.size,
        mtimeMs: file.mtimeMs,
        // Read by the watcher as the file settled, of the kind the settings ask for (never a whole-file hash).
        ...(file.contentHash && !this.settings().queue.fullHash ? { contentHash: file.contentHash } : {}),
      },
      ...(folder.cardRules === 'off' ? {} : { cards: { root: folder.path, tracks: folder.cardRules ?? 'mix' } }),
      ...(folder.shared ? { shared: folder } : {}),
      place: resultPlaceFor(folder, file.path),
    });
  }

  /**
   * One decision per path at a time: two reports of the same file (nested watch folders, a drop
   * while a rescan runs) must not both pass the identity check while one of them is hashing.
   */
  private consider(file: string, origin: JobOrigin, o: ConsiderOptions): Promise<AddOutcome> {
    const running = this.deciding.get(file);
    if (running) return running;
    const p = this.decide(file, origin, o).finally(() => this.deciding.delete(file));
    this.deciding.set(file, p);
    return p;
  }

  private async decide(file: string, origin: JobOrigin, o: ConsiderOptions): Promise<AddOutcome> {
    const card = o.cards ? await cardSkip(file, o.cards.root, o.cards.tracks) : undefined;
    if (card)
      return { path: file, outcome: 'rejected', message: card.reason, card: { rule: card.rule, winner: card.winner } };
    let identity = o.identity;
    let mediaDurationMs: number | undefined;
    if (!identity) {
      const st = await stat(file).catch((e: NodeJS.ErrnoException) => e);
      if (st instanceof Error) return { path: file, outcome: 'rejected', message: describeStatError(file, st) };
      if (!st.isFile()) return { path: file, outcome: 'rejected', message: `${file} is not a regular file.` };
      // Chosen by a watch folder's patterns or not, an empty file is no job; by hand, the name is judged too (below).
      if (ineligible({ size: st.size }))
        return { path: file, outcome: 'rejected', message: `${file} is empty (0 bytes).` };
      // By hand, anything can be pointed at; a watch folder already chose by its patterns.
      if (origin.kind === 'manual') {
        const checked = await checkHandMedia(file, st.size);
        if ('refusal' in checked) return { path: file, outcome: 'rejected', message: checked.refusal };
        mediaDurationMs = checked.durationMs ?? undefined;
      }
      identity = { path: file, size: st.size, mtimeMs: st.mtimeMs };
    }
    const q = this.settings().queue;
    const known = this.latest(file);
    if (
      !o.link &&
      q.hashContent &&
      identity.contentHash === undefined &&
      !(!q.fullHash && origin.kind === 'watch' && asTaken(identity, known, o))
    ) {
      const contentHash = await (q.fullHash ? hashFile : fingerprintFile)(file).catch(() => undefined);
      if (contentHash) identity = { ...identity, contentHash };
    }
    if (!known && !o.force && !o.link) {
      const same = await this.twins.take(file, identity, o.place ?? {});
      if (same) {
        this.known.set(file, same.job);
        // The same clip still where it was taken: this is a second copy (a card copied twice).
        const first = currentPath(same.job);
        return { path: file, outcome: same.outcome, jobId: same.job.id, ...(first !== file ? { copyOf: first } : {}) };
      }
    }
    const decision = classifyDetected(identity, known ? { jobId: known.id, source: known.source } : undefined);
    const current = known ? (this.store.get(known.id) ?? known) : undefined;
    const outcome = addOutcome(decision, current, o);
    if (current && outcome) {
      if (outcome === 'retried') {
        // A shared folder's file takes its claim on the share again first, or stays as it was.
        const again = current.shared && this.claims ? await this.claims.reclaim(current) : undefined;
        if (again && !again.ok) return { path: file, outcome: 'rejected', message: again.message };
        const retried = this.runner.apply(current.id, {
          type: 'retryRequested',
          ...(again ? { claim: again.claim } : {}),
        });
        if (retried) this.known.set(file, retried);
      }
      return { path: file, outcome, jobId: current.id };
    }
    // A copy that went on after its file was taken: the same job takes the finished file (one bill).
    const changing = known && decision.kind === 'changed' ? (this.store.get(known.id) ?? known) : undefined;
    if (changing && origin.kind === 'watch' && absorbsSourceChange(changing)) {
      this.runner.apply(changing.id, { type: 'sourceSettled', source: identity });
      return { path: file, outcome: 'already-queued', jobId: changing.id };
    }
    // Team mode: the file becomes a job here only if this computer holds its claim on the share.
    const claim =
      o.shared && this.claims
        ? await this.claims.claim(o.shared, identity, { templateId: o.templateId, params: o.params })
        : undefined;
    if (claim && !claim.ok) return { path: file, outcome: 'rejected', message: claim.message };
    const job = createJob(
      {
        id: randomUUID(),
        ...(claim?.ok && this.claims ? { shared: claim.shared, processedBy: this.claims.host } : {}),
        source: identity,
        ...(o.link ? { sourceKind: 'link' as const, resultsDir: o.link.resultsDir } : {}),
        ...(o.place ?? {}),
        origin,
        seq: ++this.seqMax,
        templateId: o.templateId,
        params: o.params,
        output: o.output,
        ...(mediaDurationMs === undefined ? {} : { mediaDurationMs }),
        ...(o.replaces ? { replaces: o.replaces } : {}),
      },
      Date.now(),
    );
    // A watch folder's file with no claim on a share: a crash before its line is written finds it again.
    if (!this.runner.add(job, origin.kind === 'watch' && !claim)) {
      // Not recorded, so not taken: a watch folder's rescan offers the file again.
      const why = this.runner.pauseState?.message ?? 'the state folder cannot be written';
      return { path: file, outcome: 'rejected', message: `${file} was not queued: ${why}`, unrecorded: true };
    }
    this.known.set(file, job);
    if (identity.contentHash) this.twins.remember(identity.contentHash, job.id);
    return { path: file, outcome: 'added', jobId: job.id };
  }
}

export { hashFile } from './fingerprint.js';

/**
 * The file is where its newest job took it, with the same size and mtime, and no new job is asked
 * for: the decision is "already queued/done" with or without the fingerprint, so its three reads
 * are spared (a restart over a folder of 100,000 files taken before fingerprinted every one).
 * Watch folders only: their watcher reports a file again only when its size or mtime changed, so
 * a rewrite that keeps both was never theirs to see; a file added by hand, or whole-file hashing
 * (the setting for such rewrites), is still hashed.
 */
function asTaken(identity: FileIdentity, known: JobRecord | undefined, o: { force: boolean }): boolean {
  if (!known || o.force) return false;
  return known.source.size === identity.size && Math.floor(known.source.mtimeMs) === Math.floor(identity.mtimeMs);
}

function describeStatError(file: string, e: NodeJS.ErrnoException): string {
  // A name given on the command line that is not valid UTF-8 arrives with U+FFFD in its place.
  if (e.code === 'ENOENT' && file.includes('\uFFFD')) {
    return `${file} cannot be opened: its name is not valid UTF-8 (shown with \uFFFD); rename it, or give its folder.`;
  }
  if (e.code === 'ENOENT') return `${file} does not exist.`;
  if (e.code === 'ENAMETOOLONG') return `${file} has a path too long to open.`;
  if (e.code === 'EACCES' || e.code === 'EPERM') return `${file} cannot be read (permission denied).`;
  if (e.code === 'ELOOP') return `${file} is a symbolic link loop.`;
  return `${file} cannot be read (${e.code ?? e.message}).`;
}
