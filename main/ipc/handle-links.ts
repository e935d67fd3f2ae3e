// queue:addLinks and queue:linkDestinations: where a link's results go is the editor's choice in
// the Add-link dialog (common/link-destination.ts); the folder is checked before any link is sent,
// and the choice is kept in Settings as the default for the next link.
import path from 'node:path';
import type { Channel, LinkDestinationsView } from '../../preload/contract.js';
import {
  initialLinkDestination,
  linkDestinationChoices,
  linkDestinationOf,
  linksSettingFor,
  resolveLinkDestination,
  sameLinkDestination,
  type LinkDestination,
} from '../../common/link-destination.js';
import { downloadsFolder, folderExists, prepareLinkFolder } from '../adapters/results/link-destination.js';
import { validation } from './errors.js';
import { expandHome } from './handle-folders.js';
import type { HandlerContext, RawHandlers } from './handler-context.js';

type LinkChannels = 'queue:addLinks' | 'queue:linkDestinations';

export function linkHandlers(
  ctx: HandlerContext<'queue' | 'settings' | 'updateSettings'>,
): RawHandlers<Extract<Channel, LinkChannels>> {
  const { queue, settings } = ctx;

  /** The folder a choice stands for, made ready to take results; a VALIDATION error says what to do. */
  const ready = async (d: LinkDestination): Promise<{ dir: string; destination: LinkDestination }> => {
    // A typed folder is read as a shell would (`~/Transcripts`) and kept resolved.
    const chosen: LinkDestination = d.kind === 'folder' ? { kind: 'folder', path: typedPath(d.path.trim()) } : d;
    const r = resolveLinkDestination(chosen, settings.get().watchFolders, downloadsFolder());
    if (!r.ok) throw validation([{ path: 'destination', message: r.message }]);
    const check = await prepareLinkFolder(r.dir, chosen.kind);
    if (!check.ok) throw validation([{ path: 'destination', message: check.message }]);
    return { dir: r.dir, destination: chosen };
  };

  /** Kept as the default for the next link, when it is not already. */
  const remember = async (d: LinkDestination): Promise<void> => {
    if (sameLinkDestination(d, linkDestinationOf(settings.get().links))) return;
    await ctx.updateSettings((s) => ({ ...s, links: { ...s.links, ...linksSettingFor(d) } }));
    await ctx.settingsChanged();
  };

  return {
    'queue:linkDestinations': async (): Promise<LinkDestinationsView> => {
      const s = settings.get();
      const downloads = downloadsFolder();
      const choices = linkDestinationChoices(s.watchFolders, downloads);
      const saved = linkDestinationOf(s.links);
      return {
        choices: await Promise.all(choices.map(async (c) => ({ ...c, exists: await folderExists(c.dir) }))),
        initial: initialLinkDestination(saved, s.watchFolders, downloads),
        ...(saved.kind === 'folder' ? { typed: saved.path } : {}),
      };
    },
    // The template and its parameters are checked once, where they are resolved (runtime/queue-commands.ts).
    'queue:addLinks': async ({ links, templateId, params, force, destination }) => {
      const chosen = destination ? await ready(destination) : undefined;
      const outcomes = await queue.addLinks(links, {
        ...(templateId ? { templateId } : {}),
        ...(params ? { params } : {}),
        ...(force ? { force } : {}),
        ...(chosen ? { resultsDir: chosen.dir } : {}),
      });
      if (chosen) await remember(chosen.destination);
      return outcomes;
    },
  };
}

function typedPath(p: string): string {
  const full = expandHome(p);
  return path.isAbsolute(full) ? path.resolve(full) : p;
}
