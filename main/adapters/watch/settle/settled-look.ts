// The look at a file found unchanged for the settle time, through the handle its check holds open:
// is its container whole, may it be taken, and when it may, its fingerprint from the same reads.
import { judgeSettled, type FileStat, type SettledCheck } from '../../../engine/settle.js';
import { withReadAhead, type OpenReader } from '../../../media/byte-reader.js';
import { containerCheckOf } from '../../../media/container-layout.js';
import type { Fingerprinter } from './settle-types.js';

export interface SettledLookInput {
  path: string;
  /** The size and modification time the settle tracker saw unchanged. */
  st: FileStat;
  /** Open on the file; closed here whatever the outcome. */
  handle: OpenReader;
  /** The size the open file's fstat gave, when the look that opened it asked already. */
  size?: number;
  /** Since when an earlier look found it whole but had to wait (same size and time). */
  unchangedSince?: number;
  /** A walk found it quiet by its modification time; it was not watched here (engine/settle.ts). */
  unwatched: boolean;
  now: () => number;
  settleMs: number;
  volume: { slowVolume: boolean; networkSettleMs: number };
  fingerprint?: Fingerprinter;
}

export interface SettledLook {
  check: SettledCheck;
  contentHash?: string;
  /** Whole, but only more time can tell it may be taken: unchanged since then. */
  wholeSince?: number;
  /** Not whole: what is wrong (engine/container-whole.ts `judgeContainer`). */
  notWhole?: string;
}

/**
 * A copy stalled mid-way is unchanged for as long as it stalls: its container says it is not
 * whole. Read through the handle that proved the file readable: one open per file, not two.
 */
export async function lookSettled(o: SettledLookInput): Promise<SettledLook> {
  const h = o.handle;
  try {
    const size =
      o.size ??
      (await h.stat().then(
        (s) => s.size,
        () => undefined,
      ));
    // The container's first bytes and a small file's fingerprint come from one read.
    const r = withReadAhead(h, size);
    const { wholeness, vouched } = await containerCheckOf(r, size, o.path);
    const now = o.now();
    // The tracker saw it unchanged for the settle time just now, or since an earlier look; an
    // unwatched file was not watched at all yet.
    const since = o.unchangedSince ?? now - (o.unwatched ? 0 : o.settleMs);
    const check = judgeSettled(
      {
        size: size ?? o.st.size,
        whole: wholeness.whole,
        vouched,
        unchangedMs: now - since,
        mtimeAgeMs: now - o.st.mtimeMs,
        unwatched: o.unwatched,
      },
      o.volume,
    );
    const wholeSince = check.kind === 'wait' && wholeness.whole ? since : undefined;
    let contentHash: string | undefined;
    if (check.kind === 'take' && size !== undefined && o.fingerprint) {
      contentHash = await Promise.resolve(o.fingerprint({ path: o.path, ...o.st }, r, size)).catch(() => undefined);
    }
    return {
      check,
      ...(contentHash ? { contentHash } : {}),
      ...(wholeSince !== undefined ? { wholeSince } : {}),
      ...(wholeness.whole ? {} : { notWhole: wholeness.reason }),
    };
  } finally {
    await h.close().catch(() => undefined);
  }
}
