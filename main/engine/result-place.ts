// Where a job's results go, as far as words decide it: the file-name pattern may hold `/` to make
// subfolders of the results folder (beside the source, or a watch folder's output folder), but it
// may never lead out of that folder. Pure: a pattern in, its parts or the reason it is refused out.

/** `/` and `\` both make a subfolder: editors on Windows type the one, on macOS the other. */
const SEPARATOR = /[/\\]/;

/**
 * Why a file-name pattern is refused, or undefined when it is fine. A pattern names a file inside
 * the results folder, so it may not start at a drive's root, climb out with `..`, or hold an empty
 * folder name (`a//b`, a trailing `/`).
 */
export function patternProblem(pattern: string): string | undefined {
  if (/^([/\\]|[A-Za-z]:)/.test(pattern)) {
    return `“${pattern}” starts at the root of a drive; a pattern names a file inside the results folder, such as Transcripts/{name}.`;
  }
  const parts = pattern.split(SEPARATOR);
  if (parts.some((p) => p.trim() === '..')) {
    return `“${pattern}” leads out of the results folder with “..”; choose an output folder for the watch folder instead.`;
  }
  if (parts.some((p) => p.trim() === '' || p.trim() === '.')) {
    return `“${pattern}” has an empty folder name (two / in a row, or one at the end); write it as Transcripts/{name}.`;
  }
  return undefined;
}

export interface PatternTokens {
  name: string;
  ext: string;
  template: string;
  date: string;
}

/**
 * The pattern with its tokens filled in, as the subfolders and the file's stem. A token's own
 * separators (a template named "A/B") become dashes: only the pattern's own `/` make folders.
 */
export function expandPattern(pattern: string, t: PatternTokens): { folders: string[]; stem: string } {
  const clean = (v: string): string => v.replace(/[/\\]/g, '-');
  const parts = pattern
    .split(SEPARATOR)
    .map((p) =>
      p
        .replaceAll('{name}', clean(t.name))
        .replaceAll('{ext}', clean(t.ext))
        .replaceAll('{template}', clean(t.template))
        .replaceAll('{date}', clean(t.date)),
    );
  const stem = parts.pop() || t.name;
  const folders = parts.map((p) => p.trim()).filter((p) => p !== '' && p !== '.' && p !== '..');
  return { folders, stem };
}
