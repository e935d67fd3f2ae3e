// Watch folders at run time: settings → WatchManager, complete files → Intake, and the folder's
// post-action once a job is settled (move the source and its results into done/ or failed/).
// The source is never touched unless the folder asks for it.
import { rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { mkdirBelow } from './folder-root.js';
import type { CopyInProgress, EngineEvent } from '../../../engine/events.js';
import type { JobEvent, JobRecord, ResultFile } from '../../../engine/job.js';
import { DEFAULT_MEDIA_GLOBS } from '../../../engine/media-types.js';
import { ineligible } from '../../../../common/media-files.js';
import { summarizeRescan, type RescanSummary } from '../../../engine/rescan-summary.js';
import type { SkipReason } from '../../../engine/folder-skips.js';
import type { IgnoredFilesStore } from '../../store/state/ignored-files.js';
import { FolderSkips, type SkipRecord } from './folder-skips.js';
import type { Settings, WatchFolder } from '../../../engine/settings.js';
import type { Intake } from '../../queue/intake.js';
import { fingerprintHandle } from '../../queue/fingerprint.js';
import { resultExtensions } from '../../results/write-results.js';
import { WatchManager } from './watch-manager.js';
import type { DetectedFile } from './folder-watcher.js';

export interface FolderServiceDeps {
  intake: Intake;
  settings: () => Settings;
  /** Folders watched for this run only (`sluice watch <folder>`), besides the saved ones. */
  extra?: () => readonly WatchFolder[];
  emit: (e: EngineEvent) => void;
  /** Reports what the post-action did to a job; the reducer records it. */
  record: (jobId: string, event: JobEvent) => void;
  setFolderPaused: (folderId: string, paused: boolean) => void;
  events?: boolean;
  /** How often a folder that went away is looked for (WatchManager's existPollMs). */
  existPollMs?: number;
  /** Where the editor's Ignores are kept across restarts (default: this run only). */
  ignored?: IgnoredFilesStore;
  /** The clock files are judged by (settle times, not whole for long); default Date.now. */
  now?: () => number;
}

/** A file a card rule skipped in a watch folder: what the folder editor lists. */
export interface CardSkipRecord {
  /** Relative to the watch folder. */
  path: string;
  rule: string;
  winner: string | null;
  at: number;
}

const CARD_SKIPS_KEPT = 100;

const sizeOf = (key: string | undefined): number => (key === undefined ? -1 : Number(key.slice(0, key.indexOf(':'))));

/** A folder with no include patterns takes audio and video only. */
function effective(f: WatchFolder): WatchFolder {
  return f.include.length > 0 ? f : { ...f, include: [...DEFAULT_MEDIA_GLOBS] };
}

export class FolderService {
  private readonly manager: WatchManager;
  private started = false;
  private readonly rescans = new Map<string, RescanSummary>();
  /** Files seen in watch folders but still changing: the Queue shows them before they are jobs. */
  private readonly copying = new Map<string, CopyInProgress>();

  /** The files still copying, oldest first; `limit` of them when given (a screen shows a few). */
  copies(limit = Infinity): CopyInProgress[] {
    const out: CopyInProgress[] = [];
    for (const c of this.copying.values()) {
      if (out.length >= limit) break;
      out.push(c);
    }
    return out;
  }

  get copyingCount(): number {
    return this.copying.size;
  }

  /** Only the count travels: a listener that shows the files asks for the few it shows, when it shows them. */
  private emitCopies(): void {
    this.d.emit({ type: 'copies:changed', total: this.copying.size });
  }

  /** Per folder, what it found and did not queue, and the editor's Ignores (folder-skips.ts). */
  readonly skips: FolderSkips;

  constructor(private readonly d: FolderServiceDeps) {
    this.skips = new FolderSkips({
      changed: (folderId) => d.emit({ type: 'folder:skips-changed', folderId }),
      ...(d.ignored ? { store: d.ignored } : {}),
      ...(d.now ? { now: d.now } : {}),
    });
    const q = d.settings().queue;
    this.manager = new WatchManager({
      settleMs: q.settleMs,
      networkSettleMs: q.networkSettleMs,
      rescanIntervalMs: q.rescanIntervalMs,
      incompleteAfterMs: q.incompleteAfterMs,
      // As saved now: a settle time changed in Settings applies to the folders without a restart.
      timing: () => {
        const now = d.settings().queue;
        return {
          settleMs: now.settleMs,
          networkSettleMs: now.networkSettleMs,
          rescanIntervalMs: now.rescanIntervalMs,
          incompleteAfterMs: now.incompleteAfterMs,
        };
      },
      resultExtensions: resultExtensions(),
      ...(d.now ? { now: d.now } : {}),
      events: d.events ?? true,
      ...(d.existPollMs === undefined ? {} : { existPollMs: d.existPollMs }),
      onFile: (f) => this.offer(f),
      // Read while the settle check holds the file open, for files the intake would fingerprint.
      fingerprint: (f, handle, size) => (d.intake.fingerprintWanted(f) ? fingerprintHandle(handle, size) : undefined),
      onStatus: (s) => {
        d.emit({
          type: 'folder:status',
          folderId: s.folderId,
          status: s.state,
          ...(s.message ? { message: s.message } : {}),
        });
      },
      onProblem: (folderId, file, message, skip) => {
        if (skip)
          this.skips.note(folderId, {
            path: file,
            reason: skip.reason,
            detail: message,
            ...(skip.key ? { key: skip.key } : {}),
          });
        // An ignored file is not said again while it stays as it was.
        if (!skip || !this.skips.quiet(folderId, file, sizeOf(skip.key)))
          d.emit({
            type: 'folder:status',
            folderId,
            status: 'watching',
            message: `${path.basename(file)}: ${message}`,
          });
      },
      onWalked: (folderId, seen) => this.skips.walked(folderId, seen),
      onWaiting: (folderId, file, size) => {
        this.skips.copying(folderId, file, size);
        if (this.skips.quiet(folderId, file, size)) return;
        const now = Date.now();
        const was = this.copying.get(file);
        if (was && was.size === size) return;
        this.copying.set(file, { folderId, path: file, size, firstSeenAt: was?.firstSeenAt ?? now, changedAt: now });
        this.emitCopies();
      },
      onDoneWaiting: (folderId, which) => {
        let changed = false;
        if ('path' in which) {
          changed = this.copying.get(which.path)?.folderId === folderId && this.copying.delete(which.path);
        } else {
          for (const [p, c] of this.copying) {
            if (c.folderId === folderId && ('all' in which || p.startsWith(which.under))) {
              changed = this.copying.delete(p) || changed;
            }
          }
        }
        if (changed) this.emitCopies();
      },
    });
  }

  /**
   * Files the journal could not record (the state folder's disk was full): a watch folder reports
   * a file once, so they are offered again when the queue resumes, not left to the next rescan.
   */
  private readonly unrecorded = new Map<string, DetectedFile>();

  private offer(f: DetectedFile): void {
    const folder = this.folder(f.folderId);
    if (!folder) return;
    // Whole and readable now: whatever was said of it before (not whole, empty) no longer holds.
    this.skips.taken(folder.id, f.path);
    void this.d.intake.addDetected(folder, f).then((o) => {
      if ('copyOf' in o && o.copyOf !== undefined) {
        const first = path.relative(folder.path, o.copyOf);
        this.skips.note(folder.id, {
          path: f.path,
          reason: 'second-copy',
          key: `${f.size}:${f.mtimeMs}`,
          detail: first.startsWith('..') || path.isAbsolute(first) ? o.copyOf : first,
        });
      }
      if (o.outcome === 'rejected' && o.unrecorded) this.unrecorded.set(f.path, f);
      else this.unrecorded.delete(f.path);
      if (o.outcome === 'rejected' && o.card) this.noteCardSkip(folder, o.path, o.card);
      if (o.outcome === 'rejected') {
        this.d.emit({ type: 'folder:status', folderId: folder.id, status: 'watching', message: o.message });
      } else if (o.outcome === 'already-queued' || o.outcome === 'already-done') {
        this.d.emit({ type: 'folder:skipped', folderId: folder.id, path: o.path, outcome: o.outcome });
      }
    });
  }

  /** The state folder takes writes again: the files it refused meanwhile are offered again. */
  retakeUnrecorded(): void {
    const files = [...this.unrecorded.values()];
    this.unrecorded.clear();
    for (const f of files) this.offer(f);
  }

  /** Per folder, the files its card rules skipped (path → skip), newest last, at most CARD_SKIPS_KEPT. */
  private readonly cardSkips = new Map<string, Map<string, CardSkipRecord>>();

  private noteCardSkip(folder: WatchFolder, file: string, card: { rule: string; winner: string | null }): void {
    const skips = this.cardSkips.get(folder.id) ?? new Map<string, CardSkipRecord>();
    this.cardSkips.set(folder.id, skips);
    const rel = path.relative(folder.path, file);
    skips.delete(rel);
    skips.set(rel, { path: rel, rule: card.rule, winner: card.winner, at: Date.now() });
    for (const oldest of skips.keys()) {
      if (skips.size <= CARD_SKIPS_KEPT) break;
      skips.delete(oldest);
    }
  }

  private all(): WatchFolder[] {
    return [...this.d.settings().watchFolders, ...(this.d.extra?.() ?? [])];
  }

  private folder(id: string): WatchFolder | undefined {
    return this.all().find((f) => f.id === id);
  }

  /** Starts watching (or applies changed settings without a restart). */
  async apply(): Promise<void> {
    this.started = true;
    const all = this.all();
    this.skips.keepFolders(new Set(all.map((f) => f.id)));
    await this.manager.set(all.map(effective));
  }

  async pause(folderId: string): Promise<void> {
    this.d.setFolderPaused(folderId, true);
    await this.manager.pause(folderId);
  }

  async resume(folderId: string): Promise<void> {
    this.d.setFolderPaused(folderId, false);
    await this.manager.resume(folderId);
  }

  /** Walks now and says, per folder, what was found: new, in the queue, already processed, still copying. */
  async rescan(folderId?: string): Promise<RescanSummary[]> {
    const found = await this.manager.rescanNow(folderId);
    const settleMs = this.d.settings().queue.settleMs;
    const now = (this.d.now ?? Date.now)();
    return found.map(({ folderId: id, files }) => {
      // Never queued, with why: what the folder's list of skips says of the file as it is now.
      const listed = new Map(this.skips.list(id).map((s) => [s.path, s.reason]));
      const cards = this.cardSkips.get(id);
      const folder = this.folder(id);
      // A proxy or a recorder's single input the card rules left: counted too, listed in the editor.
      const card = (f: { path: string }): SkipReason | undefined =>
        folder && cards?.has(path.relative(folder.path, f.path)) ? 'card-rule' : undefined;
      const skipOf = (f: { path: string; size: number }): SkipReason | undefined =>
        ineligible({ size: f.size })
          ? listed.get(f.path) === 'ignored'
            ? 'ignored'
            : 'empty'
          : (listed.get(f.path) ?? card(f));
      const links = [...listed.values()].filter((r) => r === 'dangling-link').length;
      const summary = summarizeRescan(files, (f) => this.d.intake.knownAs(f), now, settleMs, skipOf, {
        ...(links > 0 ? { 'dangling-link': links } : {}),
      });
      this.rescans.set(id, summary);
      return summary;
    });
  }

  statuses(): Array<
    ReturnType<WatchManager['statuses']>[number] & { cardSkips?: CardSkipRecord[]; skips?: SkipRecord[] }
  > {
    return this.manager.statuses().map((s) => {
      const last = this.rescans.get(s.folderId);
      const cards = [...(this.cardSkips.get(s.folderId)?.values() ?? [])].reverse();
      const skips = this.skips.list(s.folderId);
      return {
        ...s,
        ...(last ? { lastRescan: last } : {}),
        ...(cards.length > 0 ? { cardSkips: cards } : {}),
        ...(skips.length > 0 ? { skips } : {}),
      };
    });
  }

  /**
   * Retry of a file the folder left (not whole, empty): looked at now and taken at once if it is
   * whole; still not whole, it is said so again. False when the folder no longer lists it.
   */
  retrySkipped(folderId: string, id: string): boolean {
    const s = this.skips.find(folderId, id);
    if (!s || (s.reason !== 'never-whole' && s.reason !== 'empty')) return false;
    return this.manager.recheck(folderId, s.path);
  }

  get isWatching(): boolean {
    return this.started;
  }

  /** The folder's post-action for a job that just finished; failures are reported, never thrown. */
  async settled(job: JobRecord): Promise<void> {
    if (job.origin.kind !== 'watch') return;
    const folder = this.folder(job.origin.folderId);
    if (!folder || folder.postAction.kind !== 'move') return;
    const sub =
      job.state === 'completed'
        ? folder.postAction.doneDir
        : job.state === 'failed'
          ? folder.postAction.failedDir
          : null;
    if (!sub) return;
    const rel = path.relative(folder.path, path.dirname(job.source.path));
    if (rel.startsWith('..')) return;
    const targetDir = path.join(folder.path, sub, rel);
    try {
      const now = await stat(job.source.path);
      if (now.size !== job.source.size || Math.floor(now.mtimeMs) !== Math.floor(job.source.mtimeMs)) return;
      await mkdirBelow(folder.path, targetDir);
      const movedTo = path.join(targetDir, path.basename(job.source.path));
      await rename(job.source.path, movedTo);
      const results: ResultFile[] = [];
      // Results in an output folder stay there: only the source moves.
      for (const r of job.resultsDir === undefined ? job.results : []) {
        const to = path.join(targetDir, path.basename(r.path));
        await rename(r.path, to).then(
          () => results.push({ ...r, path: to }),
          () => results.push(r),
        );
      }
      this.d.record(job.id, {
        type: 'sourceMoved',
        movedTo,
        results: job.resultsDir === undefined ? results : job.results,
      });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      this.d.emit({
        type: 'folder:status',
        folderId: folder.id,
        status: 'watching',
        message: `Could not move ${path.basename(job.source.path)} to ${sub}/: ${why}`,
      });
    }
  }

  close(): Promise<void> {
    return this.manager.close();
  }
}
