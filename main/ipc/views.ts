// What crosses the bridge, built from what main keeps: JobRecord → JobView, Settings → SettingsView
// and so on. Views are plain JSON (structured-clone and JSON safe) and never hold a secret.
import path from 'node:path';
import type * as C from '../../preload/contract.js';
import { catalogueNotice, type TemplateCatalogue } from '../service/template-catalogue.js';
import { findTemplate, type AnyTemplate } from '../service/templates.js';
import type * as Api from '../service/types.js';
import type { UploadProgress } from '../adapters/queue/uploader.js';
import type { FolderWatchStatus } from '../adapters/watch/folder/folder-watcher.js';
import type { CardSkipRecord } from '../adapters/watch/folder/folder-service.js';
import type { SkipRecord } from '../adapters/watch/folder/folder-skips.js';
import { IGNORABLE, RETRIABLE, skipLabel, skipWords } from '../engine/folder-skips.js';
import { CARD_RULE_LIST } from '../../preload/contract.js';
import type { CopyInProgress, FolderStatus, QueuePauseReason } from '../engine/events.js';
import { lineProgress } from '../engine/estimate.js';
import { canCancel, canDismiss, canMove, canRetry, canRewrite } from '../engine/eligibility.js';
import { isTerminal, type JobRecord } from '../engine/job.js';
import { sourceLabel, sourceName } from '../engine/media-link.js';
import { earlierPaths } from '../engine/source-path.js';
import { completedWithoutSpeech, plainError } from '../engine/outcome-words.js';
import { queuePosition } from '../engine/queue-order.js';
import { isRateLimit } from '../engine/rate-limit.js';
import { linkResultsDir, resultAnchor } from '../adapters/results/link-destination.js';
import { isLinkJob } from '../engine/media-link.js';
import { currentPath } from '../engine/source-path.js';
import type { MoveDirection } from '../engine/scheduler.js';
import type { Settings } from '../engine/settings.js';
import { recipeLabelUsed } from '../engine/recipes/recipe-params.js';
import type { CustomRecipe } from '../engine/recipes/custom-recipes.js';
import { totalsBy } from './usage-totals.js';

// The contract mirrors main's unions without importing them; these lines fail to compile if either drifts.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _mirrors: [
  Same<C.StreamState, Api.StreamState>,
  Same<C.GatewayState, Api.GatewayState>,
  Same<C.ProcessorState, Api.ProcessorState>,
  Same<C.QueuePauseReason, QueuePauseReason>,
  Same<C.Granularity, Api.Granularity>,
  Same<C.MoveDirection, MoveDirection>,
  Same<Exclude<C.FolderState, 'disabled'>, FolderStatus>,
  Same<C.SettingsValues, Settings>,
] = [true, true, true, true, true, true, true, true];
void _mirrors;

/** One upload in flight, as the uploader keeps it (bytes sent, the samples its speed is read from). */
export type Progress = UploadProgress;

export const templateName = (id: string): string => findTemplate(id)?.name ?? id;

export function resultView(r: JobRecord['results'][number]): C.ResultFileView {
  return {
    format: r.format,
    path: r.path,
    fileName: path.basename(r.path),
    collided: r.collided === true,
    ...(r.collided && r.heldBy ? { heldBy: r.heldBy } : {}),
    ...(r.timeline ? { timeline: { ...r.timeline } } : {}),
  };
}

/**
 * The recipe a job ran with and what its answers left out (chapters and quotes whose words are not
 * in the transcript, formats not written), as the results writer recorded it on the JSON.
 */
export function recipeView(
  job: Pick<JobRecord, 'params' | 'results'>,
  custom: readonly CustomRecipe[] = [],
): { recipe?: string; recipeNotes?: string[] } {
  const label = recipeLabelUsed(job.params, custom);
  const notes = job.results.flatMap((r) => r.notes ?? []);
  return { ...(label ? { recipe: label } : {}), ...(notes.length > 0 ? { recipeNotes: notes } : {}) };
}

export function toJobView(
  job: JobRecord,
  progress: Progress | undefined,
  now = Date.now(),
  custom: readonly CustomRecipe[] = [],
): C.JobView {
  const uploading = job.state === 'uploading' && progress !== undefined;
  const line = uploading ? lineProgress(progress, now) : undefined;
  const comps = job.stream?.components;
  return {
    id: job.id,
    fileName: sourceName(job),
    // The clip's own folder (an output folder is where its results go, not where it is); a link's results folder.
    folder: path.dirname(isLinkJob(job) ? resultAnchor(job) : currentPath(job)),
    sourcePath: sourceLabel(job),
    origin: job.origin.kind === 'watch' ? { kind: 'watch', folderId: job.origin.folderId } : { kind: 'manual' },
    state: job.state,
    ...(job.streamId ? { streamId: job.streamId } : {}),
    template: { id: job.templateId, name: templateName(job.templateId) },
    params: job.params,
    // What the line has carried and its speed, not what was handed to the socket (engine/estimate.ts).
    uploadedBytes: line ? line.carried : job.uploadConfirmed ? job.totalBytes : job.uploadedBytes,
    totalBytes: uploading && progress.total > 0 ? progress.total : job.totalBytes,
    bytesPerSecond: line ? line.speed : 0,
    timings: {
      created: job.createdAt,
      ...(job.startedAt !== undefined ? { started: job.startedAt } : {}),
      ...(job.uploadedAt !== undefined ? { uploaded: job.uploadedAt } : {}),
      ...(job.finalizedAt !== undefined ? { finalized: job.finalizedAt } : {}),
      ...(job.completedAt !== undefined ? { completed: job.completedAt } : {}),
    },
    ...(job.stream
      ? {
          stream: {
            state: job.stream.state,
            stateDescription: job.stream.stateDescription,
            ...(comps?.gateway ? { gateway: comps.gateway } : {}),
            processors: comps?.processors.map((p) => ({ ...p })) ?? [],
          },
        }
      : {}),
    ...(job.error
      ? {
          error: {
            message: job.error.message,
            ...(job.error.processorId ? { processorId: job.error.processorId } : {}),
            ...(job.error.internalErrorName ? { internalErrorName: job.error.internalErrorName } : {}),
            ...(job.error.stateDescription ? { stateDescription: job.error.stateDescription } : {}),
          },
        }
      : {}),
    ...plainOutcomeView(job),
    ...(job.nextAttemptAt !== undefined && !isTerminal(job.state) ? { nextAttemptAt: job.nextAttemptAt } : {}),
    ...(job.state === 'queued' && job.nextAttemptAt !== undefined && job.error !== undefined && isRateLimit(job.error)
      ? { rateLimited: true }
      : {}),
    stuck: job.stuck,
    results: job.results.map(resultView),
    ...recipeView(job, custom),
    ...(job.resultWarning ? { resultWarning: job.resultWarning } : {}),
    ...(job.review ? { reviewNote: job.review.note } : {}),
    ...(job.movedTo ? { movedTo: job.movedTo } : {}),
    ...(earlierPaths(job).length > 0 ? { earlierPaths: earlierPaths(job) } : {}),
    dismissed: job.dismissed === true,
    canRetry: canRetry(job),
    canCancel: canCancel(job),
    canRewrite: canRewrite(job),
    canMove: canMove(job),
    canDismiss: canDismiss(job),
    position: queuePosition(job),
  };
}

/** The outcome in plain words, shared by the Queue's and History's views of a job. */
export function plainOutcomeView(job: JobRecord): { plainError?: C.PlainErrorView; noSpeech?: boolean } {
  const plain = job.state === 'completed' ? undefined : plainError(job.error);
  return {
    ...(plain ? { plainError: { summary: plain.summary, nextStep: plain.nextStep } } : {}),
    ...(completedWithoutSpeech(job) ? { noSpeech: true } : {}),
  };
}

/** The four-character tail is enough to recognise a key; shorter keys show nothing of themselves. */
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `••••${secret.slice(-4)}` : '••••';
}

export function toSettingsView(s: Settings, credentials: C.CredentialsView, startAtLogin?: boolean): C.SettingsView {
  return {
    ...structuredClone(s),
    credentials,
    linkResultsDir: linkResultsDir(s),
    ...(startAtLogin === undefined ? {} : { startAtLogin }),
  };
}

type StatusWithSkips = FolderWatchStatus & { cardSkips?: readonly CardSkipRecord[]; skips?: readonly SkipRecord[] };

/** A file the folder left, as its list shows it: where, why and what to do, and what may be done. */
export function skipView(s: SkipRecord, folderPath: string): C.SkipView {
  const rel = path.relative(folderPath, s.path);
  return {
    id: s.id,
    path: rel.startsWith('..') || path.isAbsolute(rel) ? s.path : rel,
    fileName: path.basename(s.path),
    reason: s.reason,
    label: skipLabel(s.reason),
    ...skipWords(s.reason, s.detail),
    at: s.at,
    canRetry: RETRIABLE.has(s.reason),
    canIgnore: IGNORABLE.has(s.reason),
    canUnignore: s.reason === 'ignored',
  };
}

export function toFolderStatusViews(settings: Settings, statuses: readonly StatusWithSkips[]): C.FolderStatusView[] {
  const byId = new Map(statuses.map((s) => [s.folderId, s]));
  const views: C.FolderStatusView[] = settings.watchFolders.map((f) => {
    const s = byId.get(f.id);
    if (!f.enabled) return { folderId: f.id, path: f.path, state: 'disabled', since: s?.since ?? 0 };
    return s
      ? folderStatusView(s, f.path)
      : { folderId: f.id, path: f.path, state: 'paused', message: 'Not watched yet.', since: 0 };
  });
  // Folders watched for this run only (`sluice watch <dir>`) have no saved settings; still shown.
  for (const s of statuses)
    if (!settings.watchFolders.some((f) => f.id === s.folderId)) views.push(folderStatusView(s, s.folderId));
  return views;
}

/** A card rule's id as the contract lists it; a rule the contract does not know yet is not shown. */
const knownRule = (id: string): id is C.CardRuleId => CARD_RULE_LIST.some((r) => r.id === id);

export function folderStatusView(s: StatusWithSkips, folderPath: string): C.FolderStatusView {
  const skips = (s.cardSkips ?? []).flatMap((k) => (knownRule(k.rule) ? [{ ...k, rule: k.rule }] : []));
  return {
    folderId: s.folderId,
    path: folderPath,
    state: s.state,
    ...(s.message ? { message: s.message } : {}),
    since: s.since,
    ...(s.fileCount !== undefined ? { fileCount: s.fileCount } : {}),
    ...(s.lastRescan ? { lastRescan: { ...s.lastRescan } } : {}),
    ...(skips.length > 0 ? { cardSkips: skips } : {}),
    ...(s.skips?.length ? { skips: s.skips.map((k) => skipView(k, folderPath)) } : {}),
  };
}

function toTemplateView(t: AnyTemplate, simulated: boolean): C.TemplateView {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    processors: [...t.processors],
    diarizes: t.diarizes,
    sandboxOnly: t.sandboxOnly === true,
    exportable: t.exportable,
    available: simulated || t.sandboxOnly !== true,
    account: t.account === true,
    params: t.params.map((p) => ({
      name: p.name,
      label: p.label,
      type: p.type,
      repeatable: p.repeatable === true,
      ...(p.values ? { values: [...p.values] } : {}),
      ...(p.min !== undefined ? { min: p.min } : {}),
      ...(p.max !== undefined ? { max: p.max } : {}),
      ...(p.maxLength !== undefined ? { maxLength: p.maxLength } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
      longText: p.longText === true,
      group: p.group,
    })),
  };
}

export function templateCatalogueView(catalogue: TemplateCatalogue, simulated: boolean): C.TemplateCatalogueView {
  const notice = catalogueNotice(catalogue);
  return {
    templates: catalogue.templates.map((t) => toTemplateView(t, simulated)),
    source: catalogue.source,
    ...(notice ? { notice } : {}),
  };
}

function usageItem(i: Api.UsageReportItemDto): C.UsageItemView {
  return {
    credits: i.credits,
    startTimestamp: i.startTimestamp,
    endTimestamp: i.endTimestamp,
    streamsCount: i.streamsCount,
    ...(i.operationType ? { operationType: i.operationType } : {}),
    ...(i.streamConfigurationTemplateId ? { streamConfigurationTemplateId: i.streamConfigurationTemplateId } : {}),
    measurements: { ...i.measurements },
  };
}

export function toUsageView(r: Api.UsageReportDto, cap: C.UsageView['cap'], simulated: boolean): C.UsageView {
  return {
    startTimestamp: r.startTimestamp,
    endTimestamp: r.endTimestamp,
    granularity: r.granularity,
    currency: r.currency,
    total: usageItem(r.totalMeasurements),
    byPeriod: r.aggregatedMeasurements.map(usageItem),
    // Per bucket from the service; one total per operation and per template for the screen.
    byOperation: totalsBy(r.operationTypeAggregatedMeasurements.map(usageItem), (i) => i.operationType),
    byTemplate: totalsBy(
      r.streamConfigurationTemplateIdAggregatedMeasurements.map((i) => {
        const name = i.streamConfigurationTemplateId ? findTemplate(i.streamConfigurationTemplateId)?.name : undefined;
        return { ...usageItem(i), ...(name ? { templateName: name } : {}) };
      }),
      (i) => i.streamConfigurationTemplateId,
    ),
    cap,
    simulated,
  };
}

/** What the service says of a stream's gateway and processors, as the bridge carries it. */
export function componentsView(c: Api.StreamComponentsDto): C.ComponentsView {
  return {
    gateway: c.gateway.state,
    processors: c.processors.map((p) => ({
      processorId: p.processorId,
      state: p.state,
      stateDescription: p.stateDescription,
    })),
  };
}

export function copyingView(c: CopyInProgress): C.CopyingView {
  return {
    folderId: c.folderId,
    path: c.path,
    fileName: path.basename(c.path),
    bytes: c.size,
    firstSeenAt: c.firstSeenAt,
    changedAt: c.changedAt,
    status: 'Waiting for the copy to finish',
  };
}
