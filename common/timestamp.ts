// A moment of media as people read it beside a transcript: `m:ss`, or `h:mm:ss` past an hour.

/** `m:ss`, or `h:mm:ss` when the media runs an hour or more (so every stamp in a file lines up). */
export function formatTimestamp(ms: number, withHours = false): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return withHours || h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
