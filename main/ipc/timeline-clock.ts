// The review's running timecode needs the file's place on the editor's timeline: the start frame
// and rate its editor formats were (or would be) written at. Read from the job's media facts, or
// from one probe of the source when the job carries none (a job that asked for no editor format),
// kept per job so a correction does not read the media again.
import { probeMediaFacts } from '../media/probe.js';
import type { JobRecord } from '../engine/job.js';
import type { MediaFacts } from '../engine/media-facts.js';
import { isLinkJob } from '../engine/media-link.js';
import { rateLabel } from '../engine/timecode/rates.js';
import { clipTimeline, startTimecode } from '../engine/timecode/timeline.js';
import type { TimelineClockView } from '../../preload/contract.js';
import { currentPath } from '../engine/source-path.js';

const KEPT = 32;

export class TimelineClocks {
  private readonly facts = new Map<string, Promise<MediaFacts | null>>();

  constructor(private readonly probe: (path: string) => Promise<MediaFacts> = probeMediaFacts) {}

  async of(job: JobRecord): Promise<TimelineClockView | undefined> {
    const facts = job.mediaFacts ?? (await this.probed(job));
    try {
      // Placed as the results are (a clip across midnight starts whole hours earlier), by the media's length.
      const t = clipTimeline(facts, job.output?.timeline, 0, job.mediaDurationMs);
      return {
        start: startTimecode(t),
        rate: rateLabel(t.rate),
        origin: t.origin,
        startFrame: t.startFrame,
        num: t.rate.num,
        den: t.rate.den,
        dropFrame: t.rate.dropFrame,
      };
    } catch {
      // A fixed start the rate cannot hold: the results say why; the review shows no clock.
      return undefined;
    }
  }

  private probed(job: JobRecord): Promise<MediaFacts | null> {
    if (isLinkJob(job)) return Promise.resolve(null);
    const source = currentPath(job);
    const key = `${job.id}\n${source}`;
    let hit = this.facts.get(key);
    if (!hit) {
      hit = this.probe(source).catch(() => null);
      this.facts.set(key, hit);
      while (this.facts.size > KEPT) this.facts.delete(this.facts.keys().next().value!);
    }
    return hit;
  }
}
