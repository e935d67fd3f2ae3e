// Where the results of a media link go, as one rule for the Add-link dialog, Settings and main:
// the Downloads folder, the output folder of a watch folder (an editor's project already has one),
// or a folder of the editor's own. The choice is kept in Settings as `links` and is the default
// for the next link. Pure: main says what the Downloads folder is and checks the disk.

/** A place for a link's results, as the editor chose it. */
export type LinkDestination =
  { kind: 'downloads' } | { kind: 'watch-folder'; folderId: string } | { kind: 'folder'; path: string };

/** How Settings keeps the choice: a typed folder in `resultsDir`, a watch folder by id; neither is Downloads. */
export interface LinksSetting {
  resultsDir: string | null;
  watchFolderId?: string | null;
}

/** What the rule needs of a watch folder. */
export interface LinkFolderRef {
  id: string;
  path: string;
  outputDir?: string | null | undefined;
}

/** One place the dialog offers, with the folder it stands for. */
export interface LinkDestinationChoice {
  destination: LinkDestination;
  /** Stable key for a list: `downloads`, `watch-folder:<id>`. */
  key: string;
  label: string;
  dir: string;
}

/** The last part of a path, by either separator: the name a watch folder is known by. */
export function folderName(p: string): string {
  const parts = p.split(/[\\/]+/).filter(Boolean);
  return parts.at(-1) ?? p;
}

/** The choice Settings holds. */
export function linkDestinationOf(links: LinksSetting): LinkDestination {
  if (links.watchFolderId) return { kind: 'watch-folder', folderId: links.watchFolderId };
  if (links.resultsDir) return { kind: 'folder', path: links.resultsDir };
  return { kind: 'downloads' };
}

/** The `links` setting that keeps a choice. */
export function linksSettingFor(d: LinkDestination): Required<LinksSetting> {
  if (d.kind === 'watch-folder') return { resultsDir: null, watchFolderId: d.folderId };
  if (d.kind === 'folder') return { resultsDir: d.path, watchFolderId: null };
  return { resultsDir: null, watchFolderId: null };
}

export function sameLinkDestination(a: LinkDestination, b: LinkDestination): boolean {
  return destinationKey(a) === destinationKey(b);
}

function destinationKey(d: LinkDestination): string {
  if (d.kind === 'watch-folder') return `watch-folder:${d.folderId}`;
  if (d.kind === 'folder') return `folder:${d.path}`;
  return 'downloads';
}

/**
 * The places offered besides a typed folder: Downloads, then each watch folder that has an output
 * folder, by its name (a folder whose results go beside its files has no place apart from the
 * footage, and a card is never written into).
 */
export function linkDestinationChoices(folders: readonly LinkFolderRef[], downloads: string): LinkDestinationChoice[] {
  const named = folders.filter((f): f is LinkFolderRef & { outputDir: string } => !!f.outputDir);
  const counts = new Map<string, number>();
  for (const f of named) counts.set(folderName(f.path), (counts.get(folderName(f.path)) ?? 0) + 1);
  return [
    { destination: { kind: 'downloads' }, key: 'downloads', label: 'Downloads', dir: downloads },
    ...named.map((f): LinkDestinationChoice => {
      const name = folderName(f.path);
      // Two watch folders of one name are told apart by their whole path.
      const label = (counts.get(name) ?? 0) > 1 ? `${name} (${f.path})` : name;
      return {
        destination: { kind: 'watch-folder', folderId: f.id },
        key: `watch-folder:${f.id}`,
        label: `Output folder of “${label}”`,
        dir: f.outputDir,
      };
    }),
  ];
}

/** The folder a choice stands for now, or what to do when it stands for none. */
export type ResolvedLinkDestination = { ok: true; dir: string } | { ok: false; message: string };

const FULL_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

export function resolveLinkDestination(
  d: LinkDestination,
  folders: readonly LinkFolderRef[],
  downloads: string,
): ResolvedLinkDestination {
  if (d.kind === 'downloads') return { ok: true, dir: downloads };
  if (d.kind === 'folder') {
    const typed = d.path.trim();
    if (!typed) return { ok: false, message: 'Type the folder’s full path, or choose Downloads.' };
    if (!FULL_PATH.test(typed))
      return { ok: false, message: `Give the full path of the folder, such as /home/me/Transcripts (not “${typed}”).` };
    return { ok: true, dir: typed };
  }
  const f = folders.find((x) => x.id === d.folderId);
  if (!f)
    return { ok: false, message: 'That watch folder is no longer watched. Choose another place for the results.' };
  if (!f.outputDir)
    return {
      ok: false,
      message: `The watch folder “${folderName(f.path)}” no longer has an output folder. Choose another place for the results.`,
    };
  return { ok: true, dir: f.outputDir };
}

/**
 * The choice the dialog opens on: the one in Settings while it still stands for a folder, else
 * Downloads (a watch folder removed since is not offered).
 */
export function initialLinkDestination(
  saved: LinkDestination,
  folders: readonly LinkFolderRef[],
  downloads: string,
): LinkDestination {
  return resolveLinkDestination(saved, folders, downloads).ok ? saved : { kind: 'downloads' };
}
