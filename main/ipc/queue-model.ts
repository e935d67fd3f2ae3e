// The Queue screen's views, computed in main from the queue's numbers (runtime/queue-stats.ts):
// shared by the handlers (queue:snapshot) and the event stream (queue:stats-changed) so both say
// the same thing.
import path from 'node:path';
import type { CopyingList, ElsewhereView, JobView, QueueSnapshot, QueueStats } from '../../preload/contract.js';
import { isTerminal, type JobRecord } from '../engine/job.js';
import { compareQueueOrder } from '../engine/queue-order.js';
import type { Services } from '../runtime/services.js';
import { QueueStatistics, type QueueStatsOptions } from '../runtime/queue-stats.js';
import { copyingView, toJobView } from './views.js';

/** Files still copying sent in full; past these only their count (a card dump is 100,000 files). */
export const COPYING_SHOWN = 50;
/** Names shown per computer holding files of a shared folder; past these only their count. */
export const ELSEWHERE_SHOWN = 20;

export type { PaceMemory } from '../runtime/queue-stats.js';
export type QueueModelOptions = QueueStatsOptions;

/** What the Queue's views read: jobs, settings (recipe names), files copying, files held elsewhere. */
export type QueueModelServices = Pick<Services, 'queue' | 'settings' | 'folders' | 'claims' | 'stateDir'>;

export class QueueModel {
  private readonly numbers: QueueStatistics;
  private readonly now: () => number;

  constructor(
    private readonly services: QueueModelServices,
    opts: QueueModelOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.numbers = new QueueStatistics(services.queue, services.stateDir, opts);
  }

  /** Feed every job the engine reports, so the batch, the throughput and the pace stay current. */
  observe(job: JobRecord): void {
    this.numbers.observe(job);
  }

  stats(): QueueStats {
    return this.numbers.stats();
  }

  view(job: JobRecord): JobView {
    return toJobView(
      job,
      this.services.queue.progressOf(job.id),
      this.now(),
      this.services.settings.current().customRecipes,
    );
  }

  /** Jobs in the engine's queue order; dismissed ones are left out. */
  snapshot(): QueueSnapshot {
    const jobs = this.services.queue.jobs().filter((j) => !j.dismissed || !isTerminal(j.state));
    jobs.sort(compareQueueOrder);
    const { total, files } = this.copying();
    const elsewhere = this.elsewhere();
    return {
      ...this.stats(),
      jobs: jobs.map((j) => this.view(j)),
      ...(total > 0 ? { copying: files, copyingTotal: total } : {}),
      ...(elsewhere.length > 0 ? { elsewhere } : {}),
      generatedAt: this.now(),
    };
  }

  /** The files still copying as a screen shows them: the count, and only the first few in full. */
  copying(): CopyingList {
    return {
      total: this.services.folders.copyingCount,
      files: this.services.folders.copies(COPYING_SHOWN).map(copyingView),
    };
  }

  /** Files of shared folders that other computers hold, from the claims on the share. */
  elsewhere(): ElsewhereView[] {
    return this.services.claims.heldElsewhere(ELSEWHERE_SHOWN).map((g) => ({
      folderId: g.folderId,
      folderPath: g.folderPath,
      host: g.host,
      count: g.count,
      files: g.paths.map((p) => ({ path: p, fileName: path.basename(p) })),
    }));
  }
}
