// Which files a watched folder takes: the user's include/exclude globs on top of names that are
// never media (partial downloads, office locks, dotfiles) and of Sluice's own outputs, which
// would otherwise be picked up and uploaded in a loop.
import picomatch from 'picomatch';

export interface FileFilterOptions {
  /** Globs relative to the watched folder; empty = everything. */
  include?: readonly string[];
  exclude?: readonly string[];
  recursive: boolean;
  /** Extensions Sluice writes results with, without the dot (e.g. ['json', 'srt']). */
  resultExtensions: readonly string[];
}

const PARTIAL_SUFFIXES = ['.part', '.crdownload', '.tmp', '.partial', '.download', '.sluice-tmp'];

/**
 * Always-ignored basenames, independent of the user's globs; the result extensions' suffixes are
 * made once, as the filter asks it of every file.
 */
function ignoredNames(resultExtensions: readonly string[]): (basename: string) => boolean {
  const results = resultExtensions.map((ext) => `.${ext.toLowerCase().replace(/^\./, '')}`);
  return (basename) => {
    if (basename.startsWith('.') || basename.startsWith('~$')) return true;
    const lower = basename.toLowerCase();
    return PARTIAL_SUFFIXES.some((s) => lower.endsWith(s)) || results.some((s) => lower.endsWith(s));
  };
}

/**
 * Returns a predicate over paths relative to the watched folder (either separator). A path inside
 * a dot-folder is ignored as a whole (.git, .Trash, sync clients' state).
 */
export function createFileFilter(opts: FileFilterOptions): (relPath: string) => boolean {
  // Note: patterns match names whatever their case, on every OS: cameras and recorders write
  // GX010234.MP4 and ZOOM0001.WAV, and an editor's '*.mp4' means those too.
  const pmOpts = { dot: false, nocase: true };
  const include = opts.include && opts.include.length > 0 ? matcher(opts.include, pmOpts) : () => true;
  const exclude = opts.exclude && opts.exclude.length > 0 ? matcher(opts.exclude, pmOpts) : () => false;
  const ignored = ignoredNames(opts.resultExtensions);
  return (relPath: string): boolean => {
    const rel = relPath.replace(/\\/g, '/').replace(/^\.\/+/, '');
    const parts = rel.split('/').filter((p) => p.length > 0);
    const base = parts[parts.length - 1];
    if (base === undefined) return false;
    if (!opts.recursive && parts.length > 1) return false;
    if (parts.slice(0, -1).some((d) => d.startsWith('.'))) return false;
    if (ignored(base)) return false;
    const clean = parts.join('/');
    return include(clean, base) && !exclude(clean, base);
  };
}

/** A glob without a slash ('*.mp4') matches the name at any depth, as users expect; one with a slash matches the path. */
function matcher(globs: readonly string[], o: picomatch.PicomatchOptions): (rel: string, base: string) => boolean {
  const byName = globs.filter((g) => !g.includes('/'));
  const byPath = globs.filter((g) => g.includes('/'));
  const name = byName.length > 0 ? picomatch(byName, o) : () => false;
  const full = byPath.length > 0 ? picomatch(byPath, o) : () => false;
  return (rel, base) => name(base) || full(rel);
}
