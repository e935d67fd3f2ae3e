// Note: file names that fit. Linux file systems (ext4, btrfs, XFS) and APFS allow 255 bytes of
// UTF-8 per name — bytes, so a name in Japanese or Greek reaches the limit at a third or a half as
// many characters; NTFS allows 255 UTF-16 units, never fewer than 255 UTF-8 bytes hold. A result
// name past the limit is shortened, keeping its extension and made unique by a hash of the full
// name, so the same source always gets the same shortened name; temporary names are fitted the
// same way, so a result whose own name fits is never refused because of its temporary file.
import { createHash } from 'node:crypto';

/** Longest file name, in UTF-8 bytes, that Sluice writes. */
export const NAME_MAX = 255;

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** The longest start of `s` (whole code points) that takes at most `max` UTF-8 bytes. */
export function truncateUtf8(s: string, max: number): string {
  let used = 0;
  let out = '';
  for (const ch of s) {
    used += bytes(ch);
    if (used > max) break;
    out += ch;
  }
  return out;
}

/**
 * `stem + suffix` when it fits in `max` bytes; otherwise the stem cut short and marked with `~` and
 * 8 hex digits of the full name's hash, then the suffix (the extension, kept whole).
 */
export function fitName(stem: string, suffix: string, max = NAME_MAX): { name: string; shortened: boolean } {
  const full = stem + suffix;
  if (bytes(full) <= max) return { name: full, shortened: false };
  const mark = `~${createHash('sha256').update(full).digest('hex').slice(0, 8)}`;
  const room = max - bytes(mark) - bytes(suffix);
  if (room < 1) throw new Error(`The extension ${suffix} leaves no room for a name.`);
  return { name: truncateUtf8(stem, room).trimEnd() + mark + suffix, shortened: true };
}

/**
 * One stem for every suffix of a set (a clip's `.json`, `.en.srt`, `.docx`): the stem whole when
 * every name of the set fits; otherwise cut to leave room for `room` bytes of suffix (the longest
 * any result could have, so the cut does not move when the formats change) and marked with a hash
 * of the stem alone, so one clip's results keep one stem, whichever formats it has.
 */
export function fitStem(
  stem: string,
  suffixes: readonly string[],
  room = Math.max(0, ...suffixes.map(bytes)),
  max = NAME_MAX,
): { stem: string; shortened: boolean } {
  if (suffixes.every((s) => bytes(stem) + bytes(s) <= max)) return { stem, shortened: false };
  const mark = `~${createHash('sha256').update(stem).digest('hex').slice(0, 8)}`;
  const left = max - bytes(mark) - Math.max(room, ...suffixes.map(bytes));
  if (left < 1) throw new Error(`The extension ${suffixes.join(', ')} leaves no room for a name.`);
  return { stem: truncateUtf8(stem, left).trimEnd() + mark, shortened: true };
}
