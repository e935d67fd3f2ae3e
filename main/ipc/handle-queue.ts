// app:*, queue:*, result:* and source:* handlers.
import { access } from 'node:fs/promises';
import type { Channel } from '../../preload/contract.js';
import { canDismiss } from '../engine/eligibility.js';
import { BridgeFailure, notFound, notSupported } from './errors.js';
import { componentsView } from './views.js';
import {
  appInfo,
  checkTemplate,
  requireEligible,
  requireJob,
  type HandlerContext,
  type RawHandlers,
} from './handler-context.js';

type QueueChannels =
  `app:${'info' | 'ready' | 'setStartAtLogin'}` | `queue:${string}` | 'result:open' | 'result:reveal' | 'source:reveal';

export function queueHandlers(ctx: HandlerContext): RawHandlers<Extract<Channel, QueueChannels>> {
  const { rt, platform, model } = ctx;
  const view = (id: string) => model.view(requireJob(rt, id));

  const resultPath = async (jobId: string, format: string): Promise<string> => {
    const r = requireJob(rt, jobId).results.find((x) => x.format === format);
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
    'app:info': () => appInfo(rt, platform),
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
    'queue:add': async ({ paths, templateId, params, force }) => {
      const s = rt.settings.get();
      checkTemplate(rt.templates.current, templateId ?? s.defaults.templateId, params ?? s.defaults.params, '');
      return rt.addPaths(paths, {
        ...(templateId ? { templateId } : {}),
        ...(params ? { params } : {}),
        ...(force ? { force } : {}),
      });
    },
    'queue:addLinks': async ({ links, templateId, params, force }) => {
      const s = rt.settings.get();
      checkTemplate(rt.templates.current, templateId ?? s.defaults.templateId, params ?? s.defaults.params, '');
      return rt.addLinks(links, {
        ...(templateId ? { templateId } : {}),
        ...(params ? { params } : {}),
        ...(force ? { force } : {}),
      });
    },
    'queue:pickFiles': async () => {
      if (!platform.pickFiles) return { supported: false };
      return { supported: true, ...(await platform.pickFiles()) };
    },
    'queue:pause': () => {
      rt.pause();
      return model.stats();
    },
    'queue:resume': () => {
      rt.resume();
      return model.stats();
    },
    'queue:stopAfterCurrent': () => {
      rt.stopAfterCurrent();
      return model.stats();
    },
    'queue:cancel': ({ id }) => {
      requireEligible(rt, id, 'cancel');
      rt.cancel(id);
      return view(id);
    },
    'queue:retry': ({ id }) => {
      requireEligible(rt, id, 'retry');
      rt.retry(id);
      return view(id);
    },
    'queue:retryFailed': async () => {
      const { count, skipped } = await rt.retryAllFailed();
      return { count, skipped: skipped.map(({ fileName, reason }) => ({ fileName, reason })) };
    },
    'queue:move': ({ id, direction }) => {
      requireEligible(rt, id, 'move');
      rt.move(id, direction);
      return null;
    },
    'queue:dismiss': ({ id }) => {
      requireEligible(rt, id, 'dismiss');
      rt.dismiss(id);
      return null;
    },
    'queue:dismissFinished': () => {
      let count = 0;
      for (const j of rt.jobs()) if (!j.dismissed && canDismiss(j) && rt.dismiss(j.id)) count++;
      return { count };
    },
    'queue:rewrite': async ({ id }) => {
      requireEligible(rt, id, 'rewrite');
      await rt.writeAgain(id);
      return view(id);
    },

    'queue:components': async ({ id }) => {
      const streamId = requireJob(rt, id).streamId;
      return streamId ? componentsView(await rt.streamComponents(streamId)) : null;
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
      const j = requireJob(rt, jobId);
      const p = j.movedTo ?? j.source.path;
      await access(p).catch(() => {
        throw new BridgeFailure('FILESYSTEM', `${p} is no longer there (moved or deleted).`);
      });
      await platform.revealPath(p);
      return null;
    },
  };
}
