// history:* handlers: the query is History's (runtime/history.ts); this builds the views of its
// page. Streams started elsewhere are marked `external`.
import { reflowCaptions } from '../engine/captions/presets.js';
import { isLinkJob, sourceLabel, sourceName } from '../engine/media-link.js';
import path from 'node:path';
import type { Channel, HistoryEntry } from '../../preload/contract.js';
import type { StreamDto } from '../service/types.js';
import { canCancel, canCancelExternal, canReexport, canReexportExternal, canRerun } from '../engine/eligibility.js';
import type { JobRecord, JobState, ResultPlace } from '../engine/job.js';
import { DEFAULT_OUTPUT, type WatchFolder } from '../engine/settings.js';
import { resultPlaceFor } from '../adapters/results/link-destination.js';
import type { CustomRecipe } from '../engine/recipes/custom-recipes.js';
import type { HistoryItem } from '../runtime/history.js';
import { acceptedParams } from '../engine/params.js';
import { reviewWords } from '../engine/transcript/review-carry.js';
import { catalogueTemplate } from '../service/template-catalogue.js';
import { requireEligible, requireJob, type HandlerContext, type RawHandlers } from './handler-context.js';
import { componentsView, plainOutcomeView, recipeView, resultView, templateName } from './views.js';
import { currentPath, earlierPaths } from '../engine/source-path.js';

type HistoryChannels = Extract<Channel, `history:${string}`>;

function localEntry(j: JobRecord, custom: readonly CustomRecipe[]): HistoryEntry {
  return {
    key: `job:${j.id}`,
    origin: 'local',
    jobId: j.id,
    ...(j.streamId ? { streamId: j.streamId } : {}),
    // A link by its file name, and shown without the query where a signed link keeps its signature.
    fileName: sourceName(j),
    sourcePath: sourceLabel(j),
    ...(earlierPaths(j).length > 0 ? { earlierPaths: earlierPaths(j) } : {}),
    ...(j.origin.kind === 'watch' ? { folderId: j.origin.folderId } : {}),
    template: { id: j.templateId, name: templateName(j.templateId) },
    state: j.state,
    ...(j.stream ? { streamState: j.stream.state } : {}),
    createdAt: j.createdAt,
    ...(j.completedAt ? { completedAt: j.completedAt } : {}),
    // A link's bytes are its address sent as the body, not the media's size.
    ...(isLinkJob(j) ? {} : { totalBytes: j.totalBytes }),
    results: j.results.map(resultView),
    ...recipeView(j, custom),
    ...(j.error ? { error: j.error.message } : {}),
    ...plainOutcomeView(j),
    formats: (j.output ?? DEFAULT_OUTPUT).formats,
    params: j.params,
    ...(j.processedBy ? { processedBy: j.processedBy } : {}),
    ...(j.review ? { reviewNote: j.review.note } : {}),
    canCancelStream: !!j.streamId && canCancel(j),
    canRerun: canRerun(j),
    canReexport: canReexport(j),
  };
}

function externalEntry(s: StreamDto, state: JobState): HistoryEntry {
  const templateId = s.configuration.streamConfigurationTemplateId;
  return {
    key: `stream:${s.streamId}`,
    origin: 'external',
    streamId: s.streamId,
    fileName: s.name,
    template: { id: templateId, name: templateName(templateId) },
    state,
    streamState: s.state,
    createdAt: Date.parse(s.createdTimestamp) || 0,
    ...(s.finalizedTimestamp ? { completedAt: Date.parse(s.finalizedTimestamp) } : {}),
    results: [],
    ...(s.stateDescription && s.state === 'FAILED' ? { error: s.stateDescription } : {}),
    canCancelStream: canCancelExternal(s.state),
    canRerun: false,
    canReexport: canReexportExternal(s.state),
  };
}

/**
 * Where a re-run writes: where the job wrote (its folder's output folder, below the folders the
 * source sits in), else where its watch folder writes now; undefined: beside the source.
 */
function rerunPlace(j: JobRecord, folders: readonly WatchFolder[]): ResultPlace | undefined {
  if (j.resultsDir !== undefined)
    return { resultsDir: j.resultsDir, ...(j.resultsBelow === undefined ? {} : { resultsBelow: j.resultsBelow }) };
  const folder =
    j.origin.kind === 'watch' ? folders.find((f) => f.id === (j.origin as { folderId: string }).folderId) : undefined;
  const place = folder ? resultPlaceFor(folder, j.source.path) : {};
  return place.resultsDir === undefined ? undefined : place;
}

function entryOf(item: HistoryItem, custom: readonly CustomRecipe[]): HistoryEntry {
  if (item.origin === 'external') return externalEntry(item.stream, item.state);
  return { ...localEntry(item.job, custom), ...(item.match ? { match: item.match } : {}) };
}

export function historyHandlers(
  ctx: HandlerContext<'connection' | 'history' | 'queue' | 'results' | 'settings' | 'templates' | 'transcripts'>,
): RawHandlers<HistoryChannels> {
  const { connection, history, queue, results, settings, templates, transcripts } = ctx;

  return {
    'history:list': async (q) => {
      const { items, ...page } = await history.query(q);
      const custom = settings.current().customRecipes ?? [];
      return { entries: items.map((i) => entryOf(i, custom)), ...page };
    },

    'history:components': async ({ streamId }) => componentsView(await connection.streamComponents(streamId)),
    'history:cancelStream': async ({ streamId }) => {
      const r = await queue.cancelStream(streamId);
      history.invalidate();
      return r;
    },

    'history:rerun': async ({ jobId, templateId, params, language }) => {
      const j = requireEligible(queue, jobId, 'rerun');
      const tid = templateId ?? j.templateId;
      // Another template keeps every parameter of the job it accepts (one it cannot describe: all).
      const target = catalogueTemplate(templates.current, tid);
      const p = { ...(params ?? (tid === j.templateId || !target ? j.params : acceptedParams(target, j.params))) };
      if (language !== undefined) {
        if (language.length > 0) p.language = language;
        else delete p.language;
      }
      // The parameters already hold what the job's recipe and glossary sent (a custom recipe's
      // wording too): today's default recipe and glossary are not laid over them again.
      const same = { recipe: null, glossary: [] };
      if (isLinkJob(j)) return queue.addLinks([j.source.path], { templateId: tid, params: p, force: true, ...same });
      // The job's own formats and naming, not today's defaults; its results are replaced as a set,
      // where they are: a watch folder's output folder, not beside the source (inside a card).
      const place = rerunPlace(j, settings.current().watchFolders);
      return queue.addPaths([currentPath(j)], {
        ...same,
        templateId: tid,
        params: p,
        force: true,
        replaces: j.id,
        ...(j.output ? { output: j.output } : {}),
        ...(place ? { place } : {}),
      });
    },

    'history:reviewWork': async ({ jobId }) => {
      const counts = await transcripts.reviewWork(requireJob(queue, jobId));
      return { ...counts, words: reviewWords(counts) };
    },

    'history:reexport': async (target) => {
      const local = 'jobId' in target ? requireJob(queue, target.jobId) : queue.jobOfStream(target.streamId);
      if (local) {
        requireEligible(queue, local.id, 'reexport');
        const preset = 'captionPreset' in target ? target.captionPreset : undefined;
        const replace = 'replaceCaptions' in target && target.replaceCaptions === true;
        const done = await results.reexport(
          local.id,
          'formats' in target ? target.formats : undefined,
          preset ? reflowCaptions(local.output, preset, replace) : {},
        );
        return {
          results: done.job.results.map(resultView),
          ...(done.keptBecause ? { fromKept: done.keptBecause } : {}),
        };
      }
      // A stream started elsewhere has no source file beside which to save: it goes to the state dir.
      const file = await results.exportExternal('streamId' in target ? target.streamId : '');
      return { results: [{ format: 'json', path: file, fileName: path.basename(file), collided: false }] };
    },
  };
}
