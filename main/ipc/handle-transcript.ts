// transcript:* handlers: the review view's transcript of a completed job, and its corrections.
// The editor (adapters/results/transcript-editor.ts) saves each change and rewrites the results;
// these handlers check the job, map the editor's refusals to the contract's codes and build views.
import { stat } from 'node:fs/promises';
import type { Channel, TranscriptMediaView, TranscriptView } from '../../preload/contract.js';
import { NoTranscriptError, StaleRevisionError, type OpenTranscript } from '../adapters/results/transcript-editor.js';
import type { JobRecord } from '../engine/job.js';
import { mediaKindOf } from '../engine/transcript/media-kind.js';
import { TranscriptEditError } from '../engine/transcript/transcript-edit.js';
import { paragraphsOf, speakerName } from '../engine/transcript/transcript.js';
import { BridgeFailure, conflict } from './errors.js';
import { requireEligible, type HandlerContext, type RawHandlers } from './handler-context.js';
import type { PlatformPort } from './platform.js';
import { TimelineClocks } from './timeline-clock.js';
import { resultView } from './views.js';
import { currentPath } from '../engine/source-path.js';
import { sourceName } from '../engine/media-link.js';

type TranscriptChannels = Extract<Channel, `transcript:${string}`>;

/** Where the review view's player gets the source: the platform's media URL, when the file is there. */
export async function mediaView(job: JobRecord, platform: PlatformPort): Promise<TranscriptMediaView> {
  const source = currentPath(job);
  const st = await stat(source).catch(() => null);
  if (!st?.isFile()) return { kind: 'missing', message: `${source} is no longer there (moved or deleted).` };
  if (!platform.mediaUrl) return { kind: 'missing', message: 'This window cannot play media.' };
  return { ...mediaKindOf(source), url: platform.mediaUrl(job.id) };
}

export function transcriptView(
  job: JobRecord,
  t: OpenTranscript,
  media: TranscriptMediaView,
  simulated: boolean,
  timeline?: TranscriptView['timeline'],
): TranscriptView {
  const cur = t.current;
  return {
    jobId: job.id,
    // The file's name as it is now (after a rename, the new one), as the Queue and History show it.
    fileName: sourceName(job),
    media,
    words: cur.words.map((w) => ({
      text: w.text,
      start: w.startMs,
      end: w.endMs,
      ...(w.speaker === undefined ? {} : { speaker: w.speaker }),
      ...(w.confidence === undefined ? {} : { confidence: w.confidence }),
      corrected: w.corrected,
    })),
    paragraphs: paragraphsOf(cur.words).map((p) => ({
      first: p.first,
      end: p.end,
      ...(p.speaker === undefined ? {} : { speaker: p.speaker }),
      startMs: cur.words[p.first]!.startMs,
      endMs: cur.words[p.end - 1]!.endMs,
    })),
    speakers: cur.speakers.map((id) => ({ id, name: speakerName(cur, id), renamed: cur.names[id] !== undefined })),
    revision: t.layer.revision,
    corrected: t.corrected,
    canUndo: t.layer.applied > 0,
    canRedo: t.layer.applied < t.layer.changes.length,
    simulated,
    results: job.results.map(resultView),
    ...(timeline ? { timeline } : {}),
    markers: (cur.markers ?? []).map((m) => ({ ...m })),
    ...(cur.outline
      ? {
          outline: {
            chapters: cur.outline.chapters.map((c) => ({ ...c })),
            quotes: cur.outline.quotes.map(({ typed: _typed, ...q }) => ({
              ...q,
              ...(q.speaker === undefined ? {} : { speakerName: speakerName(cur, q.speaker) }),
            })),
            notes: [...cur.outline.notes],
          },
        }
      : {}),
  };
}

/** The editor's refusals as the contract's codes. */
async function refusing<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof StaleRevisionError) throw conflict(e.message);
    if (e instanceof TranscriptEditError)
      throw new BridgeFailure('VALIDATION', e.message, { fields: [{ path: 'edit', message: e.message }] });
    if (e instanceof NoTranscriptError) throw new BridgeFailure('NOT_FOUND', e.message);
    throw e;
  }
}

export function transcriptHandlers(
  ctx: HandlerContext<'connection' | 'queue' | 'results' | 'transcripts'>,
): RawHandlers<TranscriptChannels> {
  const { connection, queue, results, transcripts, platform } = ctx;
  const completed = (jobId: string): JobRecord => requireEligible(queue, jobId, 'review');
  const clocks = new TimelineClocks();
  const answer = async (jobId: string, act: (job: JobRecord) => Promise<OpenTranscript>): Promise<TranscriptView> => {
    const job = completed(jobId);
    const t = await refusing(() => act(job));
    // The job as it is now: results may have been rewritten while the change was saved.
    const now = queue.job(jobId) ?? job;
    const [media, timeline] = await Promise.all([mediaView(now, platform), clocks.of(now)]);
    return transcriptView(now, t, media, connection.simulated, timeline);
  };
  return {
    'transcript:open': ({ jobId }) => answer(jobId, (j) => transcripts.open(j)),
    'transcript:edit': ({ jobId, revision, edit }) => answer(jobId, (j) => transcripts.edit(j, revision, edit)),
    'transcript:undo': ({ jobId }) => answer(jobId, (j) => transcripts.undo(j)),
    'transcript:redo': ({ jobId }) => answer(jobId, (j) => transcripts.redo(j)),
    'transcript:revert': ({ jobId }) => answer(jobId, (j) => transcripts.revert(j)),
    'transcript:overwriteHeld': async ({ jobId }) => {
      completed(jobId);
      // After the corrections being written: the overwrite writes them too, and nothing races it.
      await transcripts.settled(jobId);
      return { results: (await results.overwriteHeld(jobId)).results.map(resultView) };
    },
  };
}
