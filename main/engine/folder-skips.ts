// The files a watch folder found and did not queue, with why in an editor's words and what to do
// (issue 40, item 6: "every skip visible"). Pure: the watcher and the intake say what they left
// and why; this names it, keeps the list bounded, and decides what the editor's Ignore still covers.

/**
 * Why a file found in a watch folder was not queued.
 * - `second-copy`: the same clip (same bytes, same name) already processed or queued from another
 *   place: a card copied twice (file-identity.ts `classifyByContent`, "same-job").
 * - `empty`: 0 bytes.
 * - `dangling-link`: a symbolic link whose target is missing.
 * - `never-whole`: a media file that stopped changing but is not whole (container-whole.ts).
 * - `ignored`: the editor chose Ignore on it; it is taken again once it changes.
 * - `card-rule`: a proxy or a recorder's single input beside the file processed instead
 *   (card-rules.ts); listed with the card rules in the folder's editor, counted by a rescan.
 */
export type SkipReason = 'second-copy' | 'empty' | 'dangling-link' | 'never-whole' | 'ignored' | 'card-rule';

/** One skipped file of a folder, as the watcher or the intake told it. */
export interface SkipEntry {
  path: string;
  reason: Exclude<SkipReason, 'ignored' | 'card-rule'>;
  /** size:mtime when told: an Ignore covers the file as it is then, no longer once it changes. */
  key?: string;
  /** What else the reason needs: the never-whole words, or the first copy's path. */
  detail?: string;
  at: number;
}

/** What the editor ignored: the file as it was (size:mtime), so a change ends the ignore. */
export interface IgnoredFile {
  path: string;
  key: string;
  at: number;
}

/** At most this many skips are kept per folder (the newest): a list to read, not a log. */
export const SKIPS_KEPT = 200;

/** The reasons in the order a rescan counts them ("2 second copies, 1 empty"). */
export const COUNT_ORDER: readonly SkipReason[] = [
  'second-copy',
  'card-rule',
  'empty',
  'dangling-link',
  'never-whole',
  'ignored',
];

/** The reasons in the order a folder's list groups them: what needs the editor first. */
export const SKIP_ORDER: readonly SkipReason[] = [
  'never-whole',
  'empty',
  'dangling-link',
  'second-copy',
  'card-rule',
  'ignored',
];

const NAMES: Record<SkipReason, { one: string; many: string }> = {
  'second-copy': { one: 'second copy', many: 'second copies' },
  empty: { one: 'empty', many: 'empty' },
  'dangling-link': { one: 'link to nowhere', many: 'links to nowhere' },
  'never-whole': { one: 'not whole', many: 'not whole' },
  ignored: { one: 'ignored', many: 'ignored' },
  'card-rule': { one: 'skipped by the card rules', many: 'skipped by the card rules' },
};

/** A reason as a folder's list heads a file with it: "Not whole", "Link to nowhere". */
export function skipLabel(reason: SkipReason): string {
  return NAMES[reason].one.replace(/^./, (c) => c.toUpperCase());
}

/** "2 second copies", "1 empty": a rescan's count by reason. */
export function countWords(reason: SkipReason, n: number): string {
  const name = NAMES[reason];
  return `${n} ${n === 1 ? name.one : name.many}`;
}

/** The watcher's words go after a file's name ("a.mp4: unchanged for…"); alone, they start a sentence. */
const sentence = (words: string): string => words.replace(/^./, (c) => c.toUpperCase());

/** Why, and what to do, for one skipped file: what the folder's list shows. */
export function skipWords(reason: SkipReason, detail?: string): { why: string; todo: string } {
  switch (reason) {
    case 'second-copy':
      return {
        why: detail
          ? `A second copy of ${detail}, which is already processed or queued.`
          : 'A second copy of a clip already processed or queued.',
        todo: 'Nothing to do: one clip is billed once. Its results are with the first copy.',
      };
    case 'empty':
      return {
        why: 'Empty (0 bytes).',
        todo: 'If a copy failed, copy the file again: it is taken as soon as something is written to it.',
      };
    case 'dangling-link':
      return {
        why: 'A link to a file that is not there.',
        todo: 'Connect the drive it points to, or copy the file itself into the folder.',
      };
    case 'never-whole':
      return {
        why: detail ? sentence(detail) : 'Stopped changing but is not a complete media file.',
        todo: 'Copy it again from the card, or repair it. Retry checks it now; Ignore stops reporting it until it changes.',
      };
    case 'card-rule':
      return {
        why: "Skipped by the folder's card rules: a proxy or a recorder's single input beside the file processed instead.",
        todo: "Nothing to do. The folder's card rules (Edit) say what they skip.",
      };
    case 'ignored':
      return {
        why: detail ? `Ignored by you. ${sentence(detail)}` : 'Ignored by you.',
        todo: 'It is taken again as soon as it changes. Stop ignoring to see it reported again.',
      };
  }
}

/** The editor's Ignore still covers the file only while it is exactly as it was ignored. */
export function stillIgnored(ignored: IgnoredFile | undefined, key: string | undefined): boolean {
  return ignored !== undefined && key !== undefined && ignored.key === key;
}

/** Reasons an editor may Ignore (a file whose state is known by size and time) or Retry. */
export const IGNORABLE: ReadonlySet<SkipReason> = new Set(['never-whole', 'empty']);
export const RETRIABLE: ReadonlySet<SkipReason> = new Set(['never-whole', 'empty']);

/**
 * A folder's list: each skip with its reason, the ones the editor ignored as `ignored` while the
 * file is as it was, sorted by SKIP_ORDER then newest first; an ignore with no skip told since
 * Sluice started (a restart) is listed too.
 */
export function folderSkipList(
  skips: Iterable<SkipEntry>,
  ignored: Iterable<IgnoredFile>,
): Array<{ path: string; reason: SkipReason; detail?: string; at: number }> {
  const ignoredBy = new Map([...ignored].map((i) => [i.path, i]));
  const out: Array<{ path: string; reason: SkipReason; detail?: string; at: number }> = [];
  const listed = new Set<string>();
  for (const s of skips) {
    listed.add(s.path);
    const ign = ignoredBy.get(s.path);
    if (stillIgnored(ign, s.key))
      out.push({ path: s.path, reason: 'ignored', ...(s.detail ? { detail: s.detail } : {}), at: ign!.at });
    else out.push({ path: s.path, reason: s.reason, ...(s.detail ? { detail: s.detail } : {}), at: s.at });
  }
  for (const i of ignoredBy.values()) if (!listed.has(i.path)) out.push({ path: i.path, reason: 'ignored', at: i.at });
  const rank = (r: SkipReason): number => SKIP_ORDER.indexOf(r);
  return out.sort((a, b) => rank(a.reason) - rank(b.reason) || b.at - a.at);
}

/** Adds or replaces a skip, keeping the newest SKIPS_KEPT (insertion order is age). */
export function noteSkip(skips: Map<string, SkipEntry>, entry: SkipEntry): void {
  skips.delete(entry.path);
  skips.set(entry.path, entry);
  for (const oldest of skips.keys()) {
    if (skips.size <= SKIPS_KEPT) break;
    skips.delete(oldest);
  }
}
