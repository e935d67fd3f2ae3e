// app:*, queue:*, result:* and source:* handlers.
import { reflowCaptions } from '../engine/captions/presets.js';
import { access } from 'node:fs/promises';
import type { Channel } from '../../preload/contract.js';
import { canDismiss } from '../engine/eligibility.js';
import { BridgeFailure, notFound, notSupported } from './errors.js';
import { componentsView } from './views.js';
import { appInfo, requireEligible, requireJob, type HandlerContext, type RawHandlers } from './handler-context.js';
import { currentPath } from '../engine/source-path.js';

type QueueChannels = Exclude<
  Extract<
    Channel,
    | `app:${'info' | 'ready' | 'setStartAtLogin'}`
    | `queue:${string}`
    | 'result:open'
    | 'result:reveal'
    | 'source:reveal'
  >,
  'queue:addLinks' | 'queue:linkDestinations' // handle-links.ts
>;

export function queueHandlers(
  ctx: HandlerContext<'connection' | 'queue' | 'results' | 'settings'>,
): RawHandlers<QueueChannels> {
  const { connection, queue, results, platform, model } = ctx;
  const view = (id: string) => model.view(requireJob(queue, id));

  const resultPath = async (jobId: string, format: string): Promise<string> => {
    const r = requireJob(queue, jobId).results.find((x) => x.format === format);
    if (!r) throw notFound(`The ${format} result of this job`);
    await access(r.path).catch(() => {
      throw new BridgeFailure(
        'FILESYSTEM',
        `${r.path} is no longer there (moved or deleted). Rewrite or export it again.`,
      );
    });
    return r.path;
  };

  return {
    'app:info': () => appInfo(connection, platform, ctx.settings),
    'app:ready': () => {
      platform.rendererReady?.();
      return null;
    },
    'app:setStartAtLogin': ({ enabled }) => {
      if (!platform.startAtLogin) throw notSupported('Starting at login is only available in the desktop app.');
      platform.startAtLogin.set(enabled);
      return { enabled: platform.startAtLogin.get() };
    },

    'queue:snapshot': () => model.snapshot(),
    // The template and its parameters are checked once, where they are resolved (runtime/queue-commands.ts).
    'queue:add': async ({ paths, templateId, params, force }) =>
      queue.addPaths(paths, {
        ...(templateId ? { templateId } : {}),
        ...(params ? { params } : {}),
        ...(force ? { force } : {}),
      }),
    'queue:pickFiles': async () => {
      if (!platform.pickFiles) return { supported: false };
      return { supported: true, ...(await platform.pickFiles()) };
    },
    'queue:pause': () => {
      queue.pause();
      return model.stats();
    },
    'queue:resume': () => {
      queue.resume();
      return model.stats();
    },
    'queue:stopAfterCurrent': () => {
      queue.stopAfterCurrent();
      return model.stats();
    },
    'queue:cancel': ({ id }) => {
      requireEligible(queue, id, 'cancel');
      queue.cancel(id);
      return view(id);
    },
    'queue:retry': async ({ id }) => {
      requireEligible(queue, id, 'retry');
      await queue.retry(id);
      return view(id);
    },
    'queue:retryFailed': async () => {
      const { count, skipped } = await queue.retryAllFailed();
      return { count, skipped: skipped.map(({ fileName, reason }) => ({ fileName, reason })) };
    },
    'queue:move': ({ id, direction }) => {
      requireEligible(queue, id, 'move');
      queue.move(id, direction);
      return null;
    },
    'queue:dismiss': ({ id }) => {
      requireEligible(queue, id, 'dismiss');
      queue.dismiss(id);
      return null;
    },
    'queue:dismissFinished': () => {
      let count = 0;
      for (const j of queue.jobs()) if (!j.dismissed && canDismiss(j) && queue.dismiss(j.id)) count++;
      return { count };
    },
    'queue:rewrite': async ({ id, captionPreset: preset, replaceCaptions }) => {
      requireEligible(queue, id, 'rewrite');
      const job = requireJob(queue, id);
      await results.writeAgain(
        id,
        undefined,
        preset ? reflowCaptions(job.output, preset, replaceCaptions === true) : {},
      );
      return view(id);
    },

    'queue:components': async ({ id }) => {
      const streamId = requireJob(queue, id).streamId;
      return streamId ? componentsView(await connection.streamComponents(streamId)) : null;
    },

    'result:open': async ({ jobId, format }) => {
      await platform.openPath(await resultPath(jobId, format));
      return null;
    },
    'result:reveal': async ({ jobId, format }) => {
      await platform.revealPath(await resultPath(jobId, format));
      return null;
    },
    'source:reveal': async ({ jobId }) => {
      const j = requireJob(queue, jobId);
      const p = currentPath(j);
      await access(p).catch(() => {
        throw new BridgeFailure('FILESYSTEM', `${p} is no longer there (moved or deleted).`);
      });
      await platform.revealPath(p);
      return null;
    },
  };
}
