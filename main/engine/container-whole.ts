// Whether a media file's container is whole, judged from its layout (the boxes or chunks it
// declares and the file's size), which the adapter reads from the first bytes of each box. A copy
// that stalls on a share or a card reader keeps size and time unchanged for as long as it stalls:
// the settle time alone cannot tell it from a finished file, its container can.

/** An ISO BMFF (MP4, MOV, M4A, 3GP) top-level box: its type and where it claims to end. */
export interface BoxExtent {
  readonly type: string;
  readonly start: number;
  /** Declared size in bytes; null for size 0 ("to the end of the file"). */
  readonly size: number | null;
}

export type ContainerLayout =
  | {
      readonly kind: 'isobmff';
      readonly fileSize: number;
      readonly boxes: readonly BoxExtent[];
      /** Where the walk met bytes that are no box header (zeros of a pre-allocated copy, a cut header). */
      readonly brokenAt?: number;
    }
  /** RIFF/WAVE (or RF64): the size the header declares for the whole file after its first 8 bytes. */
  | { readonly kind: 'riff'; readonly fileSize: number; readonly declaredSize: number | null }
  /**
   * MXF (SMPTE 377): where the header partition places the footer partition (null when it does not
   * say: a writer that cannot seek back leaves 0), and whether a partition pack is really there
   * (null when the footer lies past the file's end).
   */
  | {
      readonly kind: 'mxf';
      readonly fileSize: number;
      readonly footerAt: number | null;
      readonly footerThere: boolean | null;
    }
  /**
   * The first bytes are zeros: a copy that reserves the file's whole size first (Windows, some NAS
   * tools) and has not written its start yet. No container starts so.
   */
  | { readonly kind: 'unwritten'; readonly fileSize: number }
  /**
   * MPEG audio (MP3): where its Xing/Info header says the stream ends (null: no such header). A file
   * that reaches that end vouches for itself; one that falls short is left to time (the longer
   * settle), not held back for good, as an MP3 cut by an editing tool may keep a header that lies.
   */
  | { readonly kind: 'mpeg-audio'; readonly fileSize: number; readonly streamEnd: number | null }
  /** A container this check does not read (MKV, AAC, …): the settle time alone decides. */
  | { readonly kind: 'other' };

export type Wholeness = { readonly whole: true } | { readonly whole: false; readonly reason: string };

const WHOLE: Wholeness = { whole: true };

/** The top-level boxes that hold the movie's description: without one, no player can read the file. */
const MOVIE_BOXES = new Set(['moov']);

/**
 * Whether the layout itself shows the file is whole (a whole judged by `judgeContainer` then needs no
 * more proof); false for containers read as `other`, a RIFF of unknown size and an MXF whose header
 * does not place its footer, where only an unchanged size over time tells.
 */
export function layoutVouches(layout: ContainerLayout): boolean {
  switch (layout.kind) {
    case 'other':
    case 'unwritten':
      return false;
    case 'riff':
      return layout.declaredSize !== null;
    case 'mxf':
      return layout.footerAt !== null;
    case 'isobmff':
      return true;
    case 'mpeg-audio':
      return layout.streamEnd !== null && layout.streamEnd <= layout.fileSize;
  }
}

export function judgeContainer(layout: ContainerLayout): Wholeness {
  switch (layout.kind) {
    case 'other':
    case 'mpeg-audio':
      return WHOLE;
    case 'unwritten':
      return { whole: false, reason: `its first bytes are zeros, not yet written by the copy` };
    case 'mxf':
      // A finished MXF's header is rewritten last with the footer's offset: a copy cut short has
      // the header of the whole file and lacks the end it points to.
      if (layout.footerAt === null) return WHOLE;
      if (layout.footerAt >= layout.fileSize) {
        return {
          whole: false,
          reason: `its header places the footer partition at byte ${layout.footerAt} and the file has ${layout.fileSize}`,
        };
      }
      if (layout.footerThere === false) {
        return {
          whole: false,
          reason: `its footer partition is not at byte ${layout.footerAt}, where its header places it`,
        };
      }
      return WHOLE;
    case 'riff':
      // 0 and 0xFFFFFFFF are what writers that cannot seek back leave: the length is unknown.
      if (layout.declaredSize === null) return WHOLE;
      if (layout.declaredSize + 8 > layout.fileSize) {
        return {
          whole: false,
          reason: `its header declares ${layout.declaredSize + 8} bytes and ${layout.fileSize} are there`,
        };
      }
      return WHOLE;
    case 'isobmff': {
      for (const b of layout.boxes) {
        if (b.size !== null && b.start + b.size > layout.fileSize) {
          return {
            whole: false,
            reason: `its '${b.type}' box ends at byte ${b.start + b.size} and the file has ${layout.fileSize}`,
          };
        }
      }
      if (layout.brokenAt !== undefined) {
        return { whole: false, reason: `its boxes stop making sense at byte ${layout.brokenAt} of ${layout.fileSize}` };
      }
      if (!layout.boxes.some((b) => MOVIE_BOXES.has(b.type))) {
        return { whole: false, reason: `it has no 'moov' box (written last, when the copy finishes)` };
      }
      return WHOLE;
    }
  }
}

/**
 * Bytes a WAV may carry past the end its RIFF (or RF64) header declares before it is refused: a
 * recorder's stray trailing chunk is a few kilobytes; a file followed by gigabytes (a copy tool's
 * reserved space, a damaged file) would upload all of them for a clip billed by its audio.
 */
export const RIFF_TRAILING_LIMIT = 1024 * 1024;

/**
 * Why a WAV is not sent: far more bytes than its header declares (past RIFF_TRAILING_LIMIT).
 * Undefined for any other container, an unknown declared size, or a few stray bytes.
 */
export function riffOverrun(layout: ContainerLayout): string | undefined {
  if (layout.kind !== 'riff' || layout.declaredSize === null) return undefined;
  const declared = layout.declaredSize + 8;
  const trailing = layout.fileSize - declared;
  if (trailing <= RIFF_TRAILING_LIMIT) return undefined;
  return `its header declares ${declared} bytes and the file has ${layout.fileSize}: ${trailing} bytes after its audio that would be uploaded for nothing. Trim or export the file again`;
}

/** The kind of container a file's name says, as people call it (MP4, MOV, WAV, MXF…). */
function containerName(fileName: string): string {
  const ext = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return ext === 'm4v' ? 'MP4' : ext === 'rf64' ? 'WAV' : ext ? ext.toUpperCase() : 'media file';
}

/**
 * What a media file that stopped changing but is still not whole is told with (S2-6 of the
 * December walkthrough): what is wrong and what may have happened; it is still taken at once if
 * it changes. `reason` is `judgeContainer`'s.
 */
export function neverWholeWords(fileName: string, reason: string, quietMs: number): string {
  const kind = containerName(fileName);
  // A delay set under a minute is said in seconds: "unchanged for 1 min" after 6 s would not be true.
  const quiet =
    quietMs < 60_000 ? `${Math.max(1, Math.round(quietMs / 1000))} s` : `${Math.round(quietMs / 60_000)} min`;
  const what = reason.includes("no 'moov'")
    ? 'no index (moov); the camera may have stopped mid-recording'
    : reason.includes('zeros')
      ? 'its first bytes were never written; the copy may have stopped before it began'
      : `cut short (${reason}); the copy or the recording may have stopped before the end`;
  return `unchanged for ${quiet} and not a complete ${kind}: ${what}. It is taken at once if it changes.`;
}
